/**
 * A SQLite database holds every label, blind ones included: the files Arbiter creates for it (the
 * database, its WAL and SHM, a migration's backup, a demo moved aside) are 0600, and the folders it
 * creates 0700; a folder that already exists keeps its mode.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/host/dispatch'
import { makeDataFolder } from '../../src/main/paths'
import { createService } from '../../src/main/service'
import { DEMO_KEY } from '../../src/main/service/engine-settings'
import { openStore } from '../../src/main/store'
import { SQLITE_MIGRATIONS } from '../../src/main/store/sqlite/migrations'
import { exampleTraces, seedTraces, TEST_ACTOR } from '../helpers/seed'

let dir: string
const mode = (p: string) => statSync(p).mode & 0o777

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-private-'))
  chmodSync(dir, 0o755)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the files of a SQLite database', () => {
  it('creates the database, its WAL and its SHM owner-only', async () => {
    const db = join(dir, 'fresh.db')
    const store = await openStore(db)
    try {
      await seedTraces(store, exampleTraces())
      for (const suffix of ['', '-wal', '-shm']) {
        expect(existsSync(db + suffix)).toBe(true)
        expect(mode(db + suffix)).toBe(0o600)
      }
    } finally {
      await store.close()
    }
  })

  it("makes a migration's backup owner-only", async () => {
    const db = join(dir, 'old.db')
    const older = await openStore(db, { migrations: SQLITE_MIGRATIONS.slice(0, -1) })
    await older.close()
    const store = await openStore(db)
    await store.close()
    const backups = readdirSync(dir).filter((f) => f.startsWith('old.db.bak-'))
    expect(backups.length).toBe(1)
    expect(mode(join(dir, backups[0]!))).toBe(0o600)
  })

  it('keeps a demo moved aside owner-only, and the empty database opened in its place', async () => {
    const db = join(dir, 'demo.db')
    const store = await openStore(db)
    await store.setSettings({ [DEMO_KEY]: { createdAt: new Date().toISOString(), seed: 0 } }, TEST_ACTOR)
    const service = await createService({ store, dbLocation: db, nativeBinding: null, shell: 'web' })
    try {
      const r = await dispatch(service.handlers, 'demo.startEmpty', {}, service.context())
      expect(r.ok).toBe(true)
      const movedTo = (r as { value: { demoMovedTo: string } }).value.demoMovedTo
      expect(mode(movedTo)).toBe(0o600)
      expect(mode(db)).toBe(0o600)
    } finally {
      await service.close()
    }
  })

  it('creates the folders it makes 0700 and leaves an existing folder as it is', () => {
    const made = join(dir, 'new-home', 'Arbiter')
    makeDataFolder(made)
    expect(mode(made)).toBe(0o700)
    expect(mode(join(dir, 'new-home'))).toBe(0o700)
    const named = join(dir, 'named')
    mkdirSync(named, { mode: 0o755 })
    chmodSync(named, 0o755)
    makeDataFolder(named)
    expect(mode(named)).toBe(0o755)
  })
})
