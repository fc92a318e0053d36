/**
 * Writes the disk refuses: a full disk and a read-only database. Each time the user gets
 * a clear error (exit code and message, not a driver stack trace), and the database afterwards
 * opens, passes integrity_check, holds every label it held or acknowledged, shows no partial
 * import — and a refused write changed no byte of the file.
 * - Full disk, two ways: a small tmpfs that fills up (ENOSPC; needs `mount`, which root has here
 *   and in CI), and a file size limit (`ulimit -f`, with SIGXFSZ ignored so writes past it fail
 *   with EFBIG instead of killing the process).
 * - Read-only: the store's `readonly` option, and a database on a read-only mount.
 * The import goes through the real CLI; the resolve through the service's handlers (crash-child.ts).
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { dispatch } from '../../src/main/host/dispatch'
import { createService } from '../../src/main/service'
import { createDemoDatabase } from '../../src/main/service/demo'
import { runImport } from '../../src/main/service/import'
import { openStore } from '../../src/main/store'
import { importLockFiles, sessionLabels, verifyDatabase } from './crash-checks'
import { CHILD, CLI, NODE_ARGS, REPO, writeTraceFile } from './crash-support'
import { reportSuite } from './report'

const t0 = performance.now()
const TASKS = 10_000
let dir: string
let demo: string
let traces: string
const mounts: string[] = []
const figures: Record<string, string | number> = {}

/** Whether this process may mount a tmpfs (root, or CAP_SYS_ADMIN); if not, those cases are skipped. */
function tryMount(at: string, options: string): boolean {
  mkdirSync(at, { recursive: true })
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at]).status === 0
  if (ok) mounts.push(at)
  return ok
}
const canMount = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'arbiter-mount-probe-'))
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]).status === 0
  if (ok) spawnSync('umount', [probe])
  rmSync(probe, { recursive: true, force: true })
  return ok
})()

type Ran = { status: number | null; stdout: string; stderr: string; record: string[] }

/** Runs a node script (the CLI or crash-child.ts), optionally under a file size limit in KiB. */
function run(script: string, args: string[], limitKiB: number | null = null): Ran {
  const log = join(dir, `run-${Math.random().toString(36).slice(2)}.log`)
  const node = [process.execPath, ...NODE_ARGS, script, ...args]
  const r =
    limitKiB === null
      ? spawnSync(node[0], node.slice(1), { cwd: REPO, input: 'go\n', encoding: 'utf8', env: { ...process.env, CRASH_LOG: log } })
      : spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f ${limitKiB}; exec "$@"`, 'bash', ...node], { cwd: REPO, input: 'go\n', encoding: 'utf8', env: { ...process.env, CRASH_LOG: log } })
  // The child's own record (crash-child.ts writes it synchronously; stdout may lose its tail at exit).
  const record = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l !== '') : []
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, record }
}

const cliImport = (db: string, limitKiB: number | null = null) => run(CLI, ['import', traces, '--db', db], limitKiB)
const resolveLoop = (db: string, limitKiB: number | null = null) => run(CHILD, ['resolve', db, '7', '100000'], limitKiB)
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')
/** The database's bytes, with its WAL (a refused write must not even reach the WAL). */
const fingerprint = (db: string) => `${sha256(db)}:${existsSync(`${db}-wal`) ? sha256(`${db}-wal`) : 'no-wal'}`

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-disk-'))
  demo = join(dir, 'demo.db')
  await createDemoDatabase(demo)
  traces = join(dir, 'disk.trace.jsonl')
  writeTraceFile(traces, 'disk', TASKS)
})

afterAll(() => {
  for (const m of mounts.reverse()) spawnSync('umount', [m])
  rmSync(dir, { recursive: true, force: true })
  reportSuite('disk-and-readonly', t0, figures)
})

/**
 * The full-disk story, whatever the limit: an import fails with a clear error, a reviewer's
 * resolves go on until the disk refuses one (clearly), and after the limit is lifted nothing of
 * the import is visible, every label is there — the refused one not at all — and a retry imports.
 */
async function fullDisk(db: string, limitKiB: number | null, lift: () => void): Promise<void> {
  const before = await verifyDatabase(db, [])

  const imp = cliImport(db, limitKiB)
  expect(imp.status, imp.stderr).toBe(1)
  expect(imp.stderr).toMatch(/^arbiter import: could not (read or )?write .*(disk is full|file size limit)/m)
  expect(imp.stdout).not.toMatch(/imported/)

  const res = resolveLoop(db, limitKiB)
  expect(res.status, res.stderr).toBe(1)
  expect(res.stderr).toMatch(/^error internal could not (read or )?write .*(disk is full|file size limit).*nothing of this operation was saved/m)
  const acked = res.record.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4))
  const session = (res.record.find((l) => l.startsWith('ready ')) as string).split(' ')[1]

  lift()
  const after = await verifyDatabase(db, [...before.labelIds, ...acked])
  expect(after.visibleTasks).toBe(before.visibleTasks)
  // Exactly the acknowledged labels: the refused resolve left nothing.
  expect(sessionLabels(db, session).map((r) => r.id).sort()).toEqual([...acked].sort())
  // With the space back, the same file imports: its failed attempt left nothing in the way.
  const retry = cliImport(db)
  expect(retry.status, retry.stderr).toBe(0)
  expect(retry.stdout).toMatch(`: ${TASKS} tasks`)
  expect((await verifyDatabase(db, after.labelIds)).visibleTasks).toBe(before.visibleTasks + TASKS)
  figures[`${limitKiB === null ? 'tmpfs' : 'ulimit'}: labels before the disk refused one`] = acked.length
}

describe('a full disk', () => {
  it.skipIf(!canMount)('on a tmpfs that fills up: clear errors, nothing partial, every label kept', async () => {
    const mnt = join(dir, 'full')
    // Room for the database, its shared-memory index and a little WAL: the import's first batch does not fit.
    const size = Math.ceil((statSync(demo).size + 32 * 1024 + 256 * 1024) / 4096) * 4096
    expect(tryMount(mnt, `size=${size}`)).toBe(true)
    const db = join(mnt, 'arbiter.db')
    copyFileSync(demo, db)
    await fullDisk(db, null, () => expect(spawnSync('mount', ['-o', 'remount,size=64m', mnt]).status).toBe(0))
  })

  const limited = () => join(dir, 'limited.db')
  it('over a file size limit (ulimit -f): clear errors, nothing partial, every label kept', async () => {
    copyFileSync(demo, limited())
    await fullDisk(limited(), 512, () => {})
  })


  it.skipIf(!canMount)('a failed abandon on a full disk leaves a dead import, not a stuck one: a retry in the same process imports the whole file', async () => {
    const mnt = join(dir, 'abandon')
    expect(tryMount(mnt, 'size=64m')).toBe(true)
    const db = join(mnt, 'arbiter.db')
    copyFileSync(demo, db)
    const before = await verifyDatabase(db, [])
    const file = join(dir, 'abandon.trace.jsonl')
    const tasks = 5000 // three staged batches: the disk fills up after the first
    writeTraceFile(file, 'abandon', tasks)
    const filler = join(mnt, 'filler')
    const req = { path: file, fileName: 'abandon.trace.jsonl', displayName: 'disk', kind: 'traces' as const, skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'] as ['task', 'worker', 'label'], header: true }, goldName: null }
    const actor = { reviewer: 'disk', sessionId: 'disk', shell: 'web' as const }
    const abandonErrors = vi.spyOn(console, 'error')
    // One store for both attempts, as the console's server keeps it: nothing reopens the database in between.
    const store = await openStore(db)
    try {
      let filled = false
      const failed = runImport(store, req, actor, (p) => {
        if (p.phase !== 'writing' || filled) return
        // The first batch is committed (staged): now nothing more fits, not even the abandon.
        filled = true
        fillUp(filler)
      })
      await expect(failed).rejects.toMatchObject({ message: expect.stringMatching(/disk is full/) })
      expect(abandonErrors.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/could not abandon a failed import: .*disk is full/)])
      rmSync(filler)
      const retry = await runImport(store, req, actor)
      expect(retry).toMatchObject({ status: 'imported', tasks, errorCount: 0 })
    } finally {
      abandonErrors.mockRestore()
      await store.close()
    }
    expect(importLockFiles(db)).toEqual([])
    expect((await verifyDatabase(db, before.labelIds)).visibleTasks).toBe(before.visibleTasks + tasks)
    figures['failed abandon on a full disk, retried in the same process'] = `${tasks} tasks imported`
  })
})

/** Writes zeros to `path` until the file system has no byte left. */
function fillUp(path: string): void {
  const fd = openSync(path, 'w')
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size)
      try {
        for (;;) writeSync(fd, chunk)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
      }
    }
  } finally {
    closeSync(fd)
  }
}

describe('a read-only database', () => {
  it("the store's read-only option refuses an import and a resolve, and changes no byte", async () => {
    const db = join(dir, 'readonly.db')
    copyFileSync(demo, db)
    const before = await verifyDatabase(db, [])
    const print = fingerprint(db)
    const store = await openStore(db, { readonly: true })
    const service = await createService({ store, dbLocation: db, nativeBinding: null, shell: 'web' })
    try {
      const actor = { reviewer: 'ro', sessionId: 'ro', shell: 'cli' as const }
      const req = { path: traces, fileName: traces, displayName: 'disk', kind: 'traces' as const, skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'] as ['task', 'worker', 'label'], header: true }, goldName: null }
      await expect(runImport(store, req, actor)).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/read-only/) })
      const row = (await store.queuePage({ filter: { decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 1 })).rows[0]
      const env = await dispatch(service.handlers, 'labels.resolve', { taskId: row.taskId, label: row.candidates[0], expectedVersion: row.version }, service.context())
      expect(env).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/read-only/) } })
      expect((await store.integrityCheck()).ok).toBe(true)
    } finally {
      await service.close()
    }
    expect(fingerprint(db)).toBe(print)
    const after = await verifyDatabase(db, before.labelIds)
    expect(after.visibleTasks).toBe(before.visibleTasks)
    expect(after.labelIds.size).toBe(before.labelIds.size)
  })

  it.skipIf(!canMount)('on a read-only mount, the CLI import and a resolve say so, and change no byte', async () => {
    const mnt = join(dir, 'ro')
    expect(tryMount(mnt, 'size=16m')).toBe(true)
    // Checked before it is copied: a check leaves -wal and -shm files, and the case is a bare file.
    const before = await verifyDatabase(demo, [])
    const db = join(mnt, 'arbiter.db')
    copyFileSync(demo, db)
    expect(spawnSync('mount', ['-o', 'remount,ro', mnt]).status).toBe(0)
    const print = fingerprint(db)

    const imp = cliImport(db)
    expect(imp.status, imp.stderr).toBe(2)
    expect(imp.stderr.trim()).toMatch(/^arbiter import: cannot open the database .*: its folder is on a read-only file system/)
    const res = resolveLoop(db)
    expect(res.status, res.stderr).toBe(2)
    expect(res.stderr.trim()).toMatch(/^error bad_input cannot open the database .*read-only file system/)
    expect(res.record.filter((l) => l.startsWith('ack '))).toEqual([])

    expect(fingerprint(db)).toBe(print)
    expect(spawnSync('mount', ['-o', 'remount,rw', mnt]).status).toBe(0)
    const after = await verifyDatabase(db, before.labelIds)
    expect(after.visibleTasks).toBe(before.visibleTasks)
    expect(after.labelIds.size).toBe(before.labelIds.size)
  })
})
