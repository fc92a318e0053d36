/**
 * Imports: a file the CLI names by its path, or an upload — one the browser console sends in
 * slices, or a file the desktop app's user picks in its dialog — run in a worker thread with
 * progress events.
 */
import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import type { CallContext, FileSource, ImportRecordView, ServerHandlers } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { topicsOf, type ImportRecord } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import type { Uploads } from '../uploads'
import { refuseHostPathFromConsole } from './local-paths'
import { requireAdjudicator } from '../team-settings'

/**
 * Uploads belong to a login: the web host names each call's session `<login's session>/<tab>`
 * (host/web-identity.ts), so every tab of one login shares its uploads and its caps.
 */
function uploadOwner(ctx: CallContext): string {
  return ctx.sessionId.split('/')[0]
}

/** A source → the file to read and the name its errors use. */
function resolve(uploads: Uploads, owner: string, src: FileSource): { path: string; fileName: string } {
  if (src.kind === 'upload') return uploads.file(owner, src.uploadId)
  if (!existsSync(src.path) || !statSync(src.path).isFile()) throw new ApiError('bad_input', `cannot read ${src.path}: no such file`)
  return { path: src.path, fileName: src.path }
}

export function importView(r: ImportRecord): ImportRecordView {
  return { id: r.id, fileName: r.fileName, sha256: r.sha256, kind: r.kind, createdAt: r.createdAt, publishedAt: r.publishedAt, createdBy: r.createdBy, counts: r.counts }
}

type H = Pick<ServerHandlers, 'imports.upload' | 'imports.pick' | 'imports.run' | 'imports.list'>

export function importHandlers(core: Core, uploads: Uploads): H {
  return {
    'imports.upload': ({ chunk, ...slice }, ctx) => uploads.append(uploadOwner(ctx), slice, chunk),
    // The dialog runs in the desktop app's main process: the window learns the file's name, never
    // its path, and names only the upload id.
    'imports.pick': async (_args, ctx) => {
      const pickFile = core.opts.pickFile
      if (ctx.shell !== 'electron' || pickFile === undefined) {
        throw new ApiError('bad_input', "imports.pick opens the desktop app's file dialog: in the browser console upload the file, from the CLI name its path")
      }
      const path = await pickFile()
      return path === null ? null : uploads.pick(uploadOwner(ctx), path)
    },
    'imports.run': async ({ source, kind, skipInvalid, goldAs, dialect, gold }, ctx) => {
      if (source.kind === 'path' || gold?.kind === 'path') refuseHostPathFromConsole(ctx, 'import')
      // Gold imported as `random` enters the calibration set without a draw: the adjudicator's call.
      if (goldAs === 'random') await requireAdjudicator(core.store(), ctx, 'importing gold labels as random')
      const owner = uploadOwner(ctx)
      // Each upload resolved is marked in use (never expired); every one marked is let go however
      // the run ends, or one run naming an unknown gold upload would pin its source for good.
      const marked: string[] = []
      const take = (src: FileSource) => {
        const found = resolve(uploads, owner, src)
        if (src.kind === 'upload') marked.push(src.uploadId)
        return found
      }
      let started = false
      try {
        const file = take(source)
        const goldFile = gold === null ? null : take(gold)
        started = true
        const { jobId, value } = await core.job({
          kind: 'import',
          dbLocation: core.opts.dbLocation,
          nativeBinding: core.opts.nativeBinding,
          actor: actorOf(ctx),
          request: {
            path: file.path,
            fileName: file.fileName,
            displayName: basename(file.fileName),
            kind,
            skipInvalid,
            goldAs,
            dialect: {
              columns: dialect.columns ?? ['task', 'worker', 'label'],
              header: dialect.header,
              ...(dialect.delimiter === null ? {} : { delimiter: dialect.delimiter }),
              ...(goldFile === null ? {} : { gold: goldFile.path })
            },
            goldName: goldFile?.fileName ?? null,
            // Only Calibrate's draw makes a `random` label (the CLI may import them), and a
            // per-reviewer login is who it says, nobody else: its label file holds its own labels.
            fromConsole: ctx.shell !== 'cli',
            asCaller: ctx.reviewerFromToken === true,
            target: { dbLocation: core.opts.dbLocation, nativeBinding: core.opts.nativeBinding }
          }
        })
        if (value.status === 'imported') {
          core.changed(topicsOf('publishImport', 'importLabels'))
          await core.labelsChanged()
        }
        return { ...value, jobId }
      } finally {
        // A file the import read is done with; one it never reached (the other was refused) stays
        // for a corrected run, and expires when left idle.
        for (const id of marked) {
          if (started) uploads.drop(owner, id)
          else uploads.release(owner, id)
        }
      }
    },
    'imports.list': async ({ limit }) => (await core.store().listImports(limit)).map(importView)
  }
}
