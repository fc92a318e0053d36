/**
 * The names of every call in the contract, zod-free: the sandboxed preload bundles this list
 * (and nothing heavier) to expose exactly these calls. `api.ts` checks at compile time that
 * it matches the schemas one for one.
 */
export const API_METHODS = [
  'app.info',
  'app.counts',
  'settings.get',
  'settings.update',
  'db.checkIntegrity'
] as const

export type ApiMethod = (typeof API_METHODS)[number]

/** IPC channel names (Electron). One channel per call, one for events. */
export const ipcChannel = (method: ApiMethod): string => `api:${method}`
export const IPC_EVENT_CHANNEL = 'api:event'
