/**
 * The names of every call in the contract, zod-free: the sandboxed preload bundles this list
 * (and nothing heavier) to expose exactly these calls. `api.ts` checks at compile time that
 * it names the contract's calls (contract/*.ts) one for one.
 */
export const API_METHODS = [
  'app.info',
  'app.counts',
  'settings.get',
  'settings.update',
  'db.checkIntegrity',
  'engine.getSettings',
  'engine.updateSettings',
  'engine.defaultsNotice',
  'engine.dismissDefaultsNotice',
  'queue.page',
  'queue.facets',
  'task.detail',
  'task.reserve',
  'task.release',
  'task.releaseHold',
  'labels.resolve',
  'labels.undo',
  'labels.recent',
  'labels.history',
  'labels.undoLast',
  'flags.add',
  'calibrate.draw',
  'calibrate.skip',
  'imports.upload',
  'imports.pick',
  'imports.run',
  'imports.list',
  'fits.run',
  'fits.redecide',
  'fits.list',
  'fits.get',
  'fits.rollback',
  'fits.status',
  'fits.whatIf',
  'fits.change',
  'export.run',
  'demo.status',
  'demo.startEmpty',
  'audit.tail',
  'audit.summary',
  'audit.report',
  'team.getSettings',
  'team.updateSettings',
  'adjudicate.list',
  'adjudicate.resolve'
] as const

export type ApiMethod = (typeof API_METHODS)[number]

/** IPC channel names (Electron). One channel per call, one for events. */
export const ipcChannel = (method: ApiMethod): string => `api:${method}`
export const IPC_EVENT_CHANNEL = 'api:event'
