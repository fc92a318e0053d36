/**
 * Imports from the console: a file on this machine (desktop) or one uploaded in chunks (browser;
 * the HTTP body is size-capped), run in a worker thread with progress events.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { FileSource, ImportRecordView, ServerHandlers } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { topicsOf, type ImportRecord } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import { refuseHostPathOverWeb } from './local-paths'

const MAX_UPLOAD_BYTES = 4 * 1024 ** 3

export class Uploads {
  private readonly dir = join(tmpdir(), `arbiter-uploads-${process.pid}-${randomUUID().slice(0, 8)}`)
  private readonly files = new Map<string, { fileName: string; path: string; bytes: number }>()

  async append(uploadId: string | null, fileName: string, chunk: string): Promise<{ uploadId: string; bytes: number }> {
    let entry = uploadId === null ? undefined : this.files.get(uploadId)
    if (uploadId !== null && entry === undefined) throw new ApiError('not_found', `no upload ${uploadId}`)
    if (entry === undefined) {
      mkdirSync(this.dir, { recursive: true })
      const id = randomUUID()
      entry = { fileName: basename(fileName), path: join(this.dir, id), bytes: 0 }
      this.files.set(id, entry)
      uploadId = id
    }
    const bytes = Buffer.byteLength(chunk, 'utf8')
    if (entry.bytes + bytes > MAX_UPLOAD_BYTES) throw new ApiError('bad_input', 'upload too large')
    await appendFile(entry.path, chunk, 'utf8')
    entry.bytes += bytes
    return { uploadId: uploadId as string, bytes: entry.bytes }
  }

  /** A source → the file to read and the name its errors use. */
  resolve(src: FileSource): { path: string; fileName: string } {
    if (src.kind === 'upload') {
      const e = this.files.get(src.uploadId)
      if (e === undefined) throw new ApiError('not_found', `no upload ${src.uploadId}`)
      if (!existsSync(e.path)) mkdirSync(this.dir, { recursive: true })
      return { path: e.path, fileName: e.fileName }
    }
    if (!existsSync(src.path) || !statSync(src.path).isFile()) throw new ApiError('bad_input', `cannot read ${src.path}: no such file`)
    return { path: src.path, fileName: src.path }
  }

  drop(src: FileSource | null): void {
    if (src?.kind !== 'upload') return
    const e = this.files.get(src.uploadId)
    if (e !== undefined) rmSync(e.path, { force: true })
    this.files.delete(src.uploadId)
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
    this.files.clear()
  }
}

export function importView(r: ImportRecord): ImportRecordView {
  return { id: r.id, fileName: r.fileName, sha256: r.sha256, kind: r.kind, createdAt: r.createdAt, publishedAt: r.publishedAt, createdBy: r.createdBy, counts: r.counts }
}

type H = Pick<ServerHandlers, 'imports.upload' | 'imports.run' | 'imports.list'>

export function importHandlers(core: Core, uploads: Uploads): H {
  return {
    'imports.upload': ({ uploadId, fileName, chunk }) => uploads.append(uploadId, fileName, chunk),
    'imports.run': async ({ source, kind, skipInvalid, goldAs, dialect, gold }, ctx) => {
      if (source.kind === 'path' || gold?.kind === 'path') refuseHostPathOverWeb(ctx, 'import')
      const file = uploads.resolve(source)
      const goldFile = gold === null ? null : uploads.resolve(gold)
      try {
        const { jobId, value } = await core.job({
          kind: 'import',
          dbPath: core.opts.dbPath,
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
            target: { dbPath: core.opts.dbPath, nativeBinding: core.opts.nativeBinding }
          }
        })
        if (value.status === 'imported') {
          core.changed(topicsOf('publishImport', 'importLabels'))
          await core.labelsChanged()
        }
        return { ...value, jobId }
      } finally {
        uploads.drop(source)
        uploads.drop(gold)
      }
    },
    'imports.list': async ({ limit }) => (await core.store().listImports(limit)).map(importView)
  }
}
