/**
 * Files the browser console uploads in chunks before an import (`imports.upload`, then
 * `imports.run`). They hold other people's data and fill a disk, so:
 * - they live in a folder of this process made by `mkdtemp`, mode 0700 (no other local user reads
 *   them), removed when the service closes; folders left by a process that died are swept when the
 *   next one starts;
 * - an upload belongs to the login that started it: another login's upload id is "no upload";
 * - each login holds at most UPLOAD_LIMITS.perLogin files and bytes at once, each file at most
 *   UPLOAD_LIMITS.perFileBytes;
 * - an upload left idle for UPLOAD_LIMITS.idleMs is deleted (a tab closed mid-upload).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { ApiError } from '../../shared/errors'

export const UPLOAD_LIMITS = {
  perFileBytes: 4 * 1024 ** 3,
  perLoginBytes: 8 * 1024 ** 3,
  perLoginFiles: 8,
  idleMs: 30 * 60_000
}

const FOLDER_PREFIX = 'arbiter-uploads-'
const FOLDER_RE = /^arbiter-uploads-(\d+)-/

interface Upload {
  owner: string
  fileName: string
  path: string
  bytes: number
  touchedAt: number
  /** Being imported: never expired (an import may outlast the idle time). */
  inUse: boolean
}

export interface UploadsOptions {
  /** Where the folder is made (default: the system's temporary folder). */
  root?: string
  limits?: Partial<typeof UPLOAD_LIMITS>
  now?: () => number
}

/** Whether a process with this id is running (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' // running, but someone else's
  }
}

/** Removes the upload folders of processes that are no longer running; returns how many. */
export function sweepDeadUploadFolders(root: string = tmpdir()): number {
  let swept = 0
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return 0
  }
  for (const name of names) {
    const m = FOLDER_RE.exec(name)
    if (m === null) continue
    const pid = Number(m[1])
    if (pid === process.pid || alive(pid)) continue
    rmSync(join(root, name), { recursive: true, force: true })
    swept++
  }
  return swept
}

export class Uploads {
  private dir: string | null = null
  private readonly files = new Map<string, Upload>()
  private readonly root: string
  private readonly limits: typeof UPLOAD_LIMITS
  private readonly now: () => number

  constructor(opts: UploadsOptions = {}) {
    this.root = opts.root ?? tmpdir()
    this.limits = { ...UPLOAD_LIMITS, ...opts.limits }
    this.now = opts.now ?? Date.now
    sweepDeadUploadFolders(this.root)
  }

  /** The folder, made on first use: mkdtemp makes it 0700 with an unguessable name. */
  private folder(): string {
    this.dir ??= mkdtempSync(join(this.root, `${FOLDER_PREFIX}${process.pid}-`))
    return this.dir
  }

  /** Appends a chunk to `owner`'s upload (a new one when `uploadId` is null). */
  async append(owner: string, uploadId: string | null, fileName: string, chunk: string): Promise<{ uploadId: string; bytes: number }> {
    this.expire()
    const bytes = Buffer.byteLength(chunk, 'utf8')
    let id = uploadId
    let entry = id === null ? undefined : this.own(owner, id)
    if (entry === undefined) {
      const mine = [...this.files.values()].filter((u) => u.owner === owner)
      if (mine.length >= this.limits.perLoginFiles) {
        throw new ApiError('bad_input', `this login already has ${mine.length} uploads waiting (at most ${this.limits.perLoginFiles}); import or wait for them to expire`)
      }
      id = randomUUID()
      entry = { owner, fileName: basename(fileName), path: join(this.folder(), id), bytes: 0, touchedAt: this.now(), inUse: false }
      this.files.set(id, entry)
    }
    if (entry.bytes + bytes > this.limits.perFileBytes) throw new ApiError('bad_input', `upload too large (at most ${this.limits.perFileBytes} bytes a file)`)
    const held = [...this.files.values()].reduce((sum, u) => sum + (u.owner === owner ? u.bytes : 0), 0)
    if (held + bytes > this.limits.perLoginBytes) throw new ApiError('bad_input', `this login's uploads would pass ${this.limits.perLoginBytes} bytes; import or drop some first`)
    await appendFile(entry.path, chunk, { encoding: 'utf8', mode: 0o600 })
    entry.bytes += bytes
    entry.touchedAt = this.now()
    return { uploadId: id as string, bytes: entry.bytes }
  }

  /** `owner`'s upload, to import: its file and the name its errors use; kept until `drop`. */
  file(owner: string, uploadId: string): { path: string; fileName: string } {
    this.expire()
    const e = this.own(owner, uploadId)
    e.inUse = true
    return { path: e.path, fileName: e.fileName }
  }

  drop(owner: string, uploadId: string): void {
    const e = this.files.get(uploadId)
    if (e === undefined || e.owner !== owner) return
    rmSync(e.path, { force: true })
    this.files.delete(uploadId)
  }

  close(): void {
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true })
    this.dir = null
    this.files.clear()
  }

  /** Another login's upload is as unknown as a missing one. */
  private own(owner: string, uploadId: string): Upload {
    const e = this.files.get(uploadId)
    if (e === undefined || e.owner !== owner) throw new ApiError('not_found', `no upload ${uploadId}`)
    return e
  }

  private expire(): void {
    const cutoff = this.now() - this.limits.idleMs
    for (const [id, e] of this.files) {
      if (e.inUse || e.touchedAt >= cutoff) continue
      rmSync(e.path, { force: true })
      this.files.delete(id)
    }
  }
}
