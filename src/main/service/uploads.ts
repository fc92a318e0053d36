/**
 * The files a console imports through an upload id (src/shared/contract/upload.ts): files the browser
 * console uploads in slices (`imports.upload`), and files the desktop app's user picks in its
 * dialog (`imports.pick`). Uploaded files hold other people's data and fill a disk, so:
 * - they live in a folder of this process made by `mkdtemp`, mode 0700 (no other local user reads
 *   them), removed when the service closes; folders left by a process that died are swept when the
 *   next one starts;
 * - an upload belongs to the login that started it: another login's upload id is "no upload";
 * - each login holds at most UPLOAD_LIMITS.perLogin files and bytes at once, each file at most
 *   UPLOAD_LIMITS.perFileBytes, and every login's uploads together at most UPLOAD_LIMITS.totalBytes,
 *   counted as the bytes arrive — each piece is checked and counted in one step before it is
 *   written, so two slices arriving at once cannot both pass a cap that only one fits under: an
 *   upload that passes a cap is deleted at once (it could never be imported);
 * - a slice is refused before a byte is written unless UPLOAD_LIMITS.minFreeBytes would stay free
 *   on the uploads' disk after the largest slice (the database writes to the same disk, often);
 * - a slice lands whole or not at all, at the offset it names, one at a time per upload;
 * - an upload left idle for UPLOAD_LIMITS.idleMs is deleted (a tab closed mid-upload).
 * A picked file is the user's own: it is read where it is, never written, copied or deleted, and
 * takes none of the caps (it fills no disk of ours); the registry forgets it as it would delete an
 * upload.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { open, statfs, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { ApiError } from '../../shared/errors'
import { MAX_UPLOAD_SLICE_BYTES, type PickedFile, type UploadBytes, type UploadResult, type UploadSlice } from '../../shared/contract/upload'
import { UPLOAD_LIMITS } from '../../shared/server-limits'

export { UPLOAD_LIMITS }

const FOLDER_PREFIX = 'arbiter-uploads-'
const FOLDER_RE = /^arbiter-uploads-(\d+)-/

interface Upload {
  owner: string
  fileName: string
  path: string
  /** The bytes it holds: every slice that landed whole. */
  bytes: number
  touchedAt: number
  /** Being imported: never expired (an import may outlast the idle time). */
  inUse: boolean
  /** The bytes of the slice being written, counted against the caps as they arrive; null: none is. */
  arriving: number | null
  /** The user's own file, chosen in the desktop app's dialog: read in place, never written or deleted. */
  picked: boolean
}

/** A slice that would pass a cap: its upload is deleted, not cut back. */
class OverCap extends ApiError {}

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

  /**
   * Appends one slice to `owner`'s upload (a new one when `slice.uploadId` is null), reading the
   * bytes as they come and checking the caps before each piece is written. A slice that fails
   * half-way is cut back off, so the same slice may be sent again.
   */
  async append(owner: string, slice: UploadSlice, chunk: UploadBytes): Promise<UploadResult> {
    this.expire()
    const { id, entry, created } = this.target(owner, slice)
    let arrived = 0
    entry.arriving = 0
    try {
      await this.checkFreeSpace()
      const file = await open(entry.path, 'a', 0o600)
      try {
        for await (const piece of piecesOf(chunk)) {
          // Checked and counted before the write awaits: a slice of another upload arriving
          // meanwhile sees these bytes already held.
          this.checkCaps(owner, entry, piece.byteLength)
          arrived += piece.byteLength
          entry.arriving = arrived
          for (let at = 0; at < piece.byteLength; ) at += (await file.write(piece, at)).bytesWritten
          entry.touchedAt = this.now()
        }
      } finally {
        await file.close()
      }
    } catch (error) {
      if (error instanceof OverCap || created) this.remove(id, entry)
      else await truncate(entry.path, entry.bytes).catch(() => this.remove(id, entry))
      throw error
    } finally {
      entry.arriving = null
    }
    entry.bytes += arrived
    entry.touchedAt = this.now()
    return { uploadId: id, bytes: entry.bytes }
  }

  /** The upload a slice goes to: `owner`'s, holding exactly `offset` bytes, with no other slice arriving. */
  private target(owner: string, slice: UploadSlice): { id: string; entry: Upload; created: boolean } {
    if (slice.uploadId !== null) {
      const entry = this.own(owner, slice.uploadId)
      if (entry.picked) throw new ApiError('bad_input', `upload ${slice.uploadId} is a file chosen on this machine: it takes no bytes`)
      if (entry.arriving !== null) throw new ApiError('conflict', `another slice of upload ${slice.uploadId} is still arriving`, { bytes: entry.bytes })
      if (slice.offset !== entry.bytes) {
        throw new ApiError('conflict', `upload ${slice.uploadId} holds ${entry.bytes} bytes; this slice starts at ${slice.offset}`, { bytes: entry.bytes })
      }
      return { id: slice.uploadId, entry, created: false }
    }
    if (slice.offset !== 0) throw new ApiError('conflict', `a new upload starts at offset 0, not ${slice.offset}`, { bytes: 0 })
    const mine = this.uploadsOf(owner)
    if (mine.length >= this.limits.perLoginFiles) {
      throw new ApiError('bad_input', `this login already has ${mine.length} uploads waiting (at most ${this.limits.perLoginFiles}); import or wait for them to expire`)
    }
    const id = randomUUID()
    const entry: Upload = {
      owner, fileName: basename(slice.fileName), path: join(this.folder(), id), bytes: 0, touchedAt: this.now(), inUse: false, arriving: null, picked: false
    }
    this.files.set(id, entry)
    return { id, entry, created: true }
  }

  /** Before `more` bytes of `entry`'s arriving slice are written: within its file's, its login's and the server's caps. */
  private checkCaps(owner: string, entry: Upload, more: number): void {
    const after = entry.bytes + (entry.arriving ?? 0) + more
    if (after > this.limits.perFileBytes) throw new OverCap('bad_input', `upload too large (at most ${this.limits.perFileBytes} bytes a file)`)
    if (held(this.uploadsOf(owner)) + more > this.limits.perLoginBytes) {
      throw new OverCap('bad_input', `this login's uploads would pass ${this.limits.perLoginBytes} bytes; import or drop some first`)
    }
    if (held(this.sent()) + more > this.limits.totalBytes) {
      throw new OverCap('bad_input', `the server's uploads would pass ${this.limits.totalBytes} bytes in all; import or wait for other uploads to finish`)
    }
  }

  /** Before a slice: the disk keeps `minFreeBytes` free even if the slice is as large as a slice may be. */
  private async checkFreeSpace(): Promise<void> {
    let free: number
    try {
      const fs = await statfs(this.dir ?? this.root)
      free = fs.bavail * fs.bsize
    } catch {
      // A disk that cannot say how full it is: the caps above still hold.
      return
    }
    if (free - MAX_UPLOAD_SLICE_BYTES < this.limits.minFreeBytes) {
      throw new ApiError('bad_input', `the server's disk is almost full (${free} bytes free; uploads keep at least ${this.limits.minFreeBytes} free): free some space and send the file again`)
    }
  }

  /**
   * Registers the file at `path`, which the desktop app's user chose in its dialog, as `owner`'s
   * upload: `imports.run` reads it in place.
   */
  pick(owner: string, path: string): PickedFile {
    this.expire()
    let bytes: number
    try {
      const st = statSync(path)
      if (!st.isFile()) throw new Error('not a file')
      bytes = st.size
    } catch {
      throw new ApiError('bad_input', `cannot read ${basename(path)}: not a file`)
    }
    const uploadId = randomUUID()
    const fileName = basename(path)
    this.files.set(uploadId, { owner, fileName, path, bytes, touchedAt: this.now(), inUse: false, arriving: null, picked: true })
    return { uploadId, fileName, bytes }
  }

  /** `owner`'s upload, to import: its file and the name its errors use; kept until `drop`. */
  file(owner: string, uploadId: string): { path: string; fileName: string } {
    this.expire()
    const e = this.own(owner, uploadId)
    if (e.arriving !== null) throw new ApiError('conflict', `upload ${uploadId} is still arriving`)
    e.inUse = true
    return { path: e.path, fileName: e.fileName }
  }

  /** An upload `file` marked that no import read after all: it may expire again, from now. */
  release(owner: string, uploadId: string): void {
    const e = this.files.get(uploadId)
    if (e === undefined || e.owner !== owner) return
    e.inUse = false
    e.touchedAt = this.now()
  }

  drop(owner: string, uploadId: string): void {
    const e = this.files.get(uploadId)
    if (e === undefined || e.owner !== owner) return
    this.remove(uploadId, e)
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

  /** The uploads that count against `owner`'s caps: the ones in our folder. */
  private uploadsOf(owner: string): Upload[] {
    return this.sent().filter((u) => u.owner === owner)
  }

  /** Every login's uploads in our folder (a picked file fills no disk of ours). */
  private sent(): Upload[] {
    return [...this.files.values()].filter((u) => !u.picked)
  }

  /** Forgets an upload; deletes its file unless it is the user's own. */
  private remove(id: string, e: Upload): void {
    if (!e.picked) rmSync(e.path, { force: true })
    this.files.delete(id)
  }

  private expire(): void {
    const cutoff = this.now() - this.limits.idleMs
    for (const [id, e] of this.files) {
      if (e.inUse || e.arriving !== null || e.touchedAt >= cutoff) continue
      this.remove(id, e)
    }
  }
}

/** The bytes uploads hold, counting the slices still arriving. */
function held(uploads: Upload[]): number {
  return uploads.reduce((sum, u) => sum + u.bytes + (u.arriving ?? 0), 0)
}

/** A slice's bytes piece by piece, whatever form they came in. */
async function* piecesOf(chunk: UploadBytes): AsyncIterable<Uint8Array> {
  if (chunk instanceof Uint8Array) yield chunk
  else if (chunk instanceof Blob) yield new Uint8Array(await chunk.arrayBuffer())
  else yield* chunk
}
