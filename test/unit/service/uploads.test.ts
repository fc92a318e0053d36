import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sweepDeadUploadFolders, Uploads } from '../../../src/main/service/uploads'
import { ApiError } from '../../../src/shared/errors'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbiter-uploads-test-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const folders = () => readdirSync(root).filter((n) => n.startsWith('arbiter-uploads-'))
/** One slice of `text`'s bytes to `owner`'s upload `uploadId` (null: a new one), starting at `offset`. */
const put = (u: Uploads, owner: string, uploadId: string | null, fileName: string, text: string, offset = 0) =>
  u.append(owner, { uploadId, fileName, offset }, Buffer.from(text))

describe('uploads of the browser console: private, their login’s own, capped and swept', () => {
  it('live in a 0700 folder of this process, files 0600, removed on close', async () => {
    const u = new Uploads({ root })
    const { uploadId } = await put(u, 'alice', null, '../../etc/passwd', 'line 1\n')
    await put(u, 'alice', uploadId, 'ignored', 'line 2\n', 7)
    const [dir] = folders()
    expect(dir).toMatch(new RegExp(`^arbiter-uploads-${process.pid}-`))
    expect(statSync(join(root, dir)).mode & 0o777).toBe(0o700)
    const file = u.file('alice', uploadId)
    expect(file.fileName).toBe('passwd') // a name, never a path
    expect(statSync(file.path).mode & 0o777).toBe(0o600)
    expect(readFileSync(file.path, 'utf8')).toBe('line 1\nline 2\n')
    u.close()
    expect(folders()).toEqual([])
  })

  it('belong to their login: another login cannot append to, import or drop them', async () => {
    const u = new Uploads({ root })
    const { uploadId } = await put(u, 'login-a', null, 'a.jsonl', 'x')
    await expect(put(u, 'login-b', uploadId, 'a.jsonl', 'y', 1)).rejects.toMatchObject({ code: 'not_found' })
    expect(() => u.file('login-b', uploadId)).toThrow(/no upload/)
    u.drop('login-b', uploadId)
    expect(readFileSync(u.file('login-a', uploadId).path, 'utf8')).toBe('x')
    u.close()
  })

  it('cap each login in files and bytes, each file in bytes, with a clear error', async () => {
    const u = new Uploads({ root, limits: { perLoginFiles: 2, perLoginBytes: 10, perFileBytes: 6 } })
    const over = await put(u, 'alice', null, 'a', '12345')
    await expect(put(u, 'alice', over.uploadId, 'a', '67', 5)).rejects.toThrow(/upload too large/)
    // An upload that passed a cap can never be imported: it is deleted at once.
    expect(() => u.file('alice', over.uploadId)).toThrow(/no upload/)
    const a = await put(u, 'alice', null, 'a', '12345')
    await put(u, 'alice', null, 'b', '12345')
    await expect(put(u, 'alice', null, 'c', '1')).rejects.toThrow(/already has 2 uploads/)
    await expect(put(u, 'bob', null, 'c', '123456')).resolves.toMatchObject({ bytes: 6 }) // caps are per login
    u.drop('alice', a.uploadId)
    const c = await put(u, 'alice', null, 'c', '12345')
    await expect(put(u, 'alice', c.uploadId, 'c', '1', 5)).rejects.toThrow(/would pass 10 bytes/)
    expect(() => u.file('alice', c.uploadId)).toThrow(/no upload/)
    u.close()
  })

  it('expire when left idle, unless an import is reading them', async () => {
    let now = 0
    const u = new Uploads({ root, now: () => now, limits: { idleMs: 1000 } })
    const idle = await put(u, 'alice', null, 'idle', 'x')
    const busy = await put(u, 'alice', null, 'busy', 'y')
    const path = u.file('alice', busy.uploadId).path
    now = 1001
    await put(u, 'bob', null, 'other', 'z') // any call sweeps
    expect(() => u.file('alice', idle.uploadId)).toThrow(/no upload/)
    expect(existsSync(path)).toBe(true)
    u.drop('alice', busy.uploadId)
    expect(existsSync(path)).toBe(false)
    u.close()
  })

  it('take a slice only at the offset the upload holds, one slice at a time: a retried or reordered slice is refused', async () => {
    const u = new Uploads({ root })
    await expect(put(u, 'alice', null, 'a', 'late', 4)).rejects.toMatchObject({ code: 'conflict' })
    const { uploadId } = await put(u, 'alice', null, 'a', 'abcd')
    await expect(put(u, 'alice', uploadId, 'a', 'abcd', 0)).rejects.toMatchObject({ code: 'conflict', details: { bytes: 4 } }) // a retry
    await expect(put(u, 'alice', uploadId, 'a', 'ijkl', 8)).rejects.toMatchObject({ code: 'conflict', details: { bytes: 4 } }) // ahead of its turn
    // A slice still arriving holds the upload: another at the same offset waits its turn.
    let release = () => {}
    const gate = new Promise<void>((r) => (release = r))
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('ef')
      await gate
      yield Buffer.from('gh')
    }
    const arriving = u.append('alice', { uploadId, fileName: 'a', offset: 4 }, slow())
    await new Promise((r) => setTimeout(r, 20))
    await expect(put(u, 'alice', uploadId, 'a', 'efgh', 4)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('still arriving') })
    expect(() => u.file('alice', uploadId)).toThrow(/still arriving/)
    release()
    await expect(arriving).resolves.toEqual({ uploadId, bytes: 8 })
    await put(u, 'alice', uploadId, 'a', 'ijkl', 8)
    expect(readFileSync(u.file('alice', uploadId).path, 'utf8')).toBe('abcdefghijkl')
    u.close()
  })

  it('cut a slice that fails half-way back off, so the same slice can be sent again', async () => {
    const u = new Uploads({ root })
    const { uploadId } = await put(u, 'alice', null, 'a', 'abcd')
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('ef')
      throw new ApiError('bad_input', 'the upload slice ended before its body did')
    }
    await expect(u.append('alice', { uploadId, fileName: 'a', offset: 4 }, broken())).rejects.toThrow(/ended before/)
    expect(readFileSync(u.file('alice', uploadId).path, 'utf8')).toBe('abcd')
    await expect(put(u, 'alice', uploadId, 'a', 'efgh', 4)).resolves.toEqual({ uploadId, bytes: 8 })
    // A new upload whose first slice fails is no upload at all: nothing is left to expire.
    await expect(u.append('alice', { uploadId: null, fileName: 'b', offset: 0 }, broken())).rejects.toThrow(/ended before/)
    expect(readdirSync(join(root, folders()[0]))).toEqual([uploadId])
    u.close()
  })

  it('count a streamed slice against the caps as it arrives: past one, the write stops and the upload is deleted', async () => {
    const u = new Uploads({ root, limits: { perFileBytes: 10, perLoginBytes: 14 } })
    const pieces: string[] = []
    async function* stream(n: number): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < n; i++) {
        pieces.push(`piece ${i}`)
        yield Buffer.from('xxxx')
      }
    }
    const { uploadId } = await put(u, 'alice', null, 'a', 'xx')
    await expect(u.append('alice', { uploadId, fileName: 'a', offset: 2 }, stream(100))).rejects.toThrow(/upload too large/)
    expect(pieces).toHaveLength(3) // the third piece would pass 10 bytes: nothing after it is read
    expect(() => u.file('alice', uploadId)).toThrow(/no upload/)
    expect(readdirSync(join(root, folders()[0]))).toEqual([])
    // The login's cap counts its other uploads and what is arriving.
    const b = await put(u, 'alice', null, 'b', '1234567890')
    const c = await put(u, 'alice', null, 'c', '12')
    await expect(u.append('alice', { uploadId: c.uploadId, fileName: 'c', offset: 2 }, stream(2))).rejects.toThrow(/would pass 14 bytes/)
    expect(() => u.file('alice', c.uploadId)).toThrow(/no upload/)
    expect(readFileSync(u.file('alice', b.uploadId).path, 'utf8')).toBe('1234567890')
    u.close()
  })

  it('count each piece in the same step as its cap check: slices of two uploads arriving at once cannot both pass a cap only one fits under', async () => {
    const MiB = 1024 ** 2
    const u = new Uploads({ root, limits: { perLoginBytes: 6 * MiB } })
    // Four 4 MiB slices start together: each is checked before the others' writes have finished.
    const results = await Promise.allSettled([0, 1, 2, 3].map((i) => u.append('alice', { uploadId: null, fileName: `f${i}`, offset: 0 }, Buffer.alloc(4 * MiB, 120))))
    const landed = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(landed).toHaveLength(1)
    for (const r of refused) expect(String(r.reason)).toMatch(/would pass 6291456 bytes/)
    // The refused uploads are gone: only the one that fits is on disk.
    expect(readdirSync(join(root, folders()[0]))).toHaveLength(1)
    u.close()
  })

  it('cap every login\'s uploads together, with a clear error', async () => {
    const u = new Uploads({ root, limits: { perLoginBytes: 10, totalBytes: 12 } })
    await put(u, 'alice', null, 'a', '12345678')
    await expect(put(u, 'bob', null, 'b', '12345')).rejects.toThrow(/server's uploads would pass 12 bytes in all/)
    await expect(put(u, 'bob', null, 'b', '1234')).resolves.toMatchObject({ bytes: 4 })
    u.close()
  })

  it('refuse a slice before writing it when the disk would keep less free space than the limit', async () => {
    const u = new Uploads({ root, limits: { minFreeBytes: Number.MAX_SAFE_INTEGER } })
    await expect(put(u, 'alice', null, 'a', 'abc')).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/disk is almost full/) })
    expect(folders().flatMap((f) => readdirSync(join(root, f)))).toEqual([])
    u.close()
  })

  it('register a file picked on this machine as its owner\'s upload: read in place, no caps, never written or deleted', async () => {
    const u = new Uploads({ root, limits: { perLoginFiles: 1, perFileBytes: 4, perLoginBytes: 4, idleMs: 1000 } })
    const mine = join(root, 'mine.trace.jsonl')
    writeFileSync(mine, 'the user’s own file, larger than every cap\n')
    const picked = u.pick('alice', mine)
    expect(picked).toEqual({ uploadId: expect.any(String), fileName: 'mine.trace.jsonl', bytes: statSync(mine).size })
    expect(() => u.file('bob', picked.uploadId)).toThrow(/no upload/)
    await expect(put(u, 'alice', picked.uploadId, 'x', 'more', picked.bytes)).rejects.toMatchObject({ code: 'bad_input' })
    await expect(put(u, 'alice', null, 'a', '1234')).resolves.toMatchObject({ bytes: 4 }) // the pick takes no file or byte of the caps
    expect(u.file('alice', picked.uploadId)).toEqual({ path: mine, fileName: 'mine.trace.jsonl' })
    u.drop('alice', picked.uploadId)
    expect(() => u.file('alice', picked.uploadId)).toThrow(/no upload/)
    u.pick('alice', mine)
    u.close()
    expect(readFileSync(mine, 'utf8')).toBe('the user’s own file, larger than every cap\n')
    expect(() => u.pick('alice', join(root, 'gone.jsonl'))).toThrow(/cannot read gone.jsonl/)
    expect(() => u.pick('alice', root)).toThrow(/not a file/)
  })

  it('sweeps the folders of processes that died, and only theirs', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const deadPid = Number(dead.stdout)
    mkdirSync(join(root, `arbiter-uploads-${deadPid}-abc123`))
    writeFileSync(join(root, `arbiter-uploads-${deadPid}-abc123`, 'left'), 'data')
    mkdirSync(join(root, `arbiter-uploads-${process.pid}-mine00`))
    mkdirSync(join(root, 'arbiter-uploads-notapid'))
    expect(sweepDeadUploadFolders(root)).toBe(1)
    expect(folders().sort()).toEqual([`arbiter-uploads-${process.pid}-mine00`, 'arbiter-uploads-notapid'])
    // A new service sweeps on start.
    mkdirSync(join(root, `arbiter-uploads-${deadPid}-def456`))
    new Uploads({ root }).close()
    expect(folders()).not.toContain(`arbiter-uploads-${deadPid}-def456`)
  })
})
