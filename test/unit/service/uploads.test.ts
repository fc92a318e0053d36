import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sweepDeadUploadFolders, Uploads } from '../../../src/main/service/uploads'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbiter-uploads-test-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const folders = () => readdirSync(root).filter((n) => n.startsWith('arbiter-uploads-'))

describe('uploads of the browser console: private, their login’s own, capped and swept', () => {
  it('live in a 0700 folder of this process, files 0600, removed on close', async () => {
    const u = new Uploads({ root })
    const { uploadId } = await u.append('alice', null, '../../etc/passwd', 'line 1\n')
    await u.append('alice', uploadId, 'ignored', 'line 2\n')
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
    const { uploadId } = await u.append('login-a', null, 'a.jsonl', 'x')
    await expect(u.append('login-b', uploadId, 'a.jsonl', 'y')).rejects.toMatchObject({ code: 'not_found' })
    expect(() => u.file('login-b', uploadId)).toThrow(/no upload/)
    u.drop('login-b', uploadId)
    expect(readFileSync(u.file('login-a', uploadId).path, 'utf8')).toBe('x')
    u.close()
  })

  it('cap each login in files and bytes, each file in bytes, with a clear error', async () => {
    const u = new Uploads({ root, limits: { perLoginFiles: 2, perLoginBytes: 10, perFileBytes: 6 } })
    const a = await u.append('alice', null, 'a', '12345')
    await expect(u.append('alice', a.uploadId, 'a', '67')).rejects.toThrow(/upload too large/)
    await u.append('alice', null, 'b', '12345')
    await expect(u.append('alice', null, 'c', '1')).rejects.toThrow(/already has 2 uploads/)
    await expect(u.append('bob', null, 'c', '123456')).resolves.toMatchObject({ bytes: 6 }) // caps are per login
    u.drop('alice', a.uploadId)
    const c = await u.append('alice', null, 'c', '12345')
    await expect(u.append('alice', c.uploadId, 'c', '1')).rejects.toThrow(/would pass 10 bytes/)
    u.close()
  })

  it('expire when left idle, unless an import is reading them', async () => {
    let now = 0
    const u = new Uploads({ root, now: () => now, limits: { idleMs: 1000 } })
    const idle = await u.append('alice', null, 'idle', 'x')
    const busy = await u.append('alice', null, 'busy', 'y')
    const path = u.file('alice', busy.uploadId).path
    now = 1001
    await u.append('bob', null, 'other', 'z') // any call sweeps
    expect(() => u.file('alice', idle.uploadId)).toThrow(/no upload/)
    expect(existsSync(path)).toBe(true)
    u.drop('alice', busy.uploadId)
    expect(existsSync(path)).toBe(false)
    u.close()
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
