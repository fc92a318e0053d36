import Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteStore, SQLITE_MIGRATIONS, StoreError, type Migration } from '../../../src/main/store'
import { migrationSha256 } from '../../../src/main/store/migrations'
import { applyPragmas } from '../../../src/main/store/sqlite/connection'
import { ANA, importTasks, makeTask, NO_FILTER, rejection, saveDecisions } from './fixtures'
import { decisionsTable } from '../../../src/main/store/fit-decisions'
import { fileSha256, rawDb, useTempDir } from './sqlite-helpers'

const M1 = SQLITE_MIGRATIONS[0]
/** The shipped history, and a next migration that does not exist yet (the store's code reads the shipped schema). */
const BASE = SQLITE_MIGRATIONS
/** The latest shipped version (numbers may skip one: a branch keeps its number until the lead renumbers at merge). */
const N = BASE[BASE.length - 1].version
const NEXT: Migration = {
  version: N + 1,
  name: 'add-notes',
  sql: 'CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL);\nALTER TABLE settings ADD COLUMN origin TEXT;'
}
const BAD: Migration = { version: N + 2, name: 'broken', sql: 'CREATE TABLE extra (x INTEGER);\nSELECT no_such_column FROM no_such_table;' }
const label = (v: number) => String(v).padStart(4, '0')
const CLOCK = () => new Date('2026-11-30T12:34:56.789Z')

/** Creates a database at the shipped version holding one published task with one label. */
async function seeded(path: string): Promise<void> {
  const store = await openSqliteStore(path, { migrations: BASE })
  await importTasks(store, [makeTask('t1')])
  await store.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
  await store.close()
}

function tableNames(path: string): string[] {
  const db = rawDb(path, true)
  try {
    return (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name)
  } finally {
    db.close()
  }
}

function appliedVersions(path: string): { version: number; name: string; sha256: string }[] {
  const db = rawDb(path, true)
  try {
    return db.prepare('SELECT version, name, sha256 FROM schema_migrations ORDER BY version').all() as {
      version: number; name: string; sha256: string
    }[]
  } finally {
    db.close()
  }
}

describe('sqlite migrations', () => {
  const tmp = useTempDir()

  it('creates a new database at the latest version, records each sha256, takes no backup', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    const info = await store.info()
    expect(info).toMatchObject({ backend: 'sqlite', dbLocation: path, schemaVersion: N, readonly: false })
    const all = SQLITE_MIGRATIONS.map((m) => m.version)
    expect(info.migration).toEqual({ from: 0, to: N, applied: all, backupPath: null })
    await store.close()
    expect(appliedVersions(path)).toEqual(SQLITE_MIGRATIONS.map((m) => ({ version: m.version, name: m.name, sha256: migrationSha256(m) })))
    expect(appliedVersions(path)[0]).toEqual({ version: 1, name: 'initial', sha256: migrationSha256(M1) })
    expect(readdirSync(dirname(path)).filter((f) => f.includes('.bak-'))).toEqual([])
    const db = rawDb(path, true)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()

    const again = await openSqliteStore(path)
    expect((await again.info()).migration).toBeNull() // nothing pending
    await again.close()
  })

  it('sets WAL, synchronous=FULL, foreign keys and a busy timeout on every connection', () => {
    const db = new Database(tmp.dbLocation())
    applyPragmas(db, { readonly: false, busyTimeoutMs: 1234 })
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('synchronous', { simple: true })).toBe(2) // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234)
    db.close()
  })

  it('upgrades an earlier version, keeping the data and a VACUUM INTO backup of the old file', async () => {
    const path = tmp.dbLocation()
    await seeded(path)
    const store = await openSqliteStore(path, { migrations: [...BASE, NEXT], now: CLOCK })
    const info = await store.info()
    expect(info.schemaVersion).toBe(N + 1)
    const backup = `${path}.bak-v${N}-20261130T123456789Z`
    expect(info.migration).toEqual({ from: N, to: N + 1, applied: [N + 1], backupPath: backup })
    expect(await store.counts()).toMatchObject({ tasks: 1, labels: 1 })
    expect((await store.getTaskSummary('t1')).liveLabels[0].label).toBe('true')
    await store.close()

    expect(tableNames(path)).toContain('notes')
    expect(existsSync(backup)).toBe(true)
    expect(basename(backup)).toMatch(new RegExp(`^arbiter\\.db\\.bak-v${N}-`))
    expect(appliedVersions(backup).map((r) => r.version)).toEqual(BASE.map((m) => m.version))
    expect(tableNames(backup)).not.toContain('notes')
    const old = rawDb(backup, true)
    expect(old.prepare('SELECT count(*) AS n FROM labels').get()).toEqual({ n: 1 })
    old.close()
  })

  it('refuses a database newer than the code, naming both versions, and leaves it untouched', async () => {
    const path = tmp.dbLocation()
    await (await openSqliteStore(path, { migrations: [...BASE, NEXT] })).close()
    const before = fileSha256(path)
    const e = await rejection(openSqliteStore(path, { migrations: BASE }))
    expect(e).toBeInstanceOf(StoreError)
    expect(e.code).toBe('conflict')
    expect(e.message).toContain(`version ${N + 1}, newer than this build of Arbiter knows (latest ${N})`)
    expect(fileSha256(path)).toBe(before)
  })

  it('refuses an applied migration whose SQL was edited, naming it', async () => {
    const path = tmp.dbLocation()
    await (await openSqliteStore(path, { migrations: [...BASE, NEXT] })).close()
    const edited: Migration = { ...NEXT, sql: NEXT.sql.replace('NOT NULL', '') }
    const e = await rejection(openSqliteStore(path, { migrations: [...BASE, edited] }))
    expect(e.code).toBe('conflict')
    expect(e.message).toContain(`${label(N + 1)} "add-notes" was edited after it was applied`)
    expect(e.details).toMatchObject({ version: N + 1, recorded: migrationSha256(NEXT), code: migrationSha256(edited) })
  })

  it('rolls a failed migration back, leaving the file byte-for-byte as it was', async () => {
    const path = tmp.dbLocation()
    await seeded(path)
    const before = fileSha256(path)
    const e = await rejection(openSqliteStore(path, { migrations: [...BASE, NEXT, BAD], now: CLOCK }))
    expect(e.code).toBe('internal')
    expect(e.message).toContain(`${label(N + 2)} "broken" failed and was rolled back`)
    expect(e.message).toContain(`unchanged at version ${N}`)
    expect(e.details).toMatchObject({ version: N + 2, databaseVersion: N })
    expect(fileSha256(path)).toBe(before) // the store closed its connection before rejecting
    expect(appliedVersions(path).map((r) => r.version)).toEqual(BASE.map((m) => m.version))
    expect(tableNames(path)).not.toContain('notes') // NEXT went with BAD: one transaction
    expect(existsSync(`${path}.bak-v${N}-20261130T123456789Z`)).toBe(true)

    const store = await openSqliteStore(path, { migrations: BASE }) // still opens as before
    expect(await store.counts()).toMatchObject({ tasks: 1, labels: 1 })
    await store.close()
  })

  it('refuses a migration list whose versions do not strictly increase, before creating a file', async () => {
    const path = tmp.dbLocation()
    const e = await rejection(openSqliteStore(path, { migrations: [NEXT, { ...M1, version: N + 1 }] }))
    expect(e.code).toBe('internal')
    expect(e.message).toMatch(/strictly increase/)
    expect(existsSync(path)).toBe(false)
  })

  it('refuses a file that is not an Arbiter database', async () => {
    const path = tmp.dbLocation('other.db')
    const db = new Database(path)
    db.exec('CREATE TABLE something (x)')
    db.close()
    const e = await rejection(openSqliteStore(path))
    expect(e.code).toBe('bad_input')
    expect(e.message).toMatch(/not an Arbiter database/)
  })

  it('opens read-only without migrating or writing', async () => {
    const path = tmp.dbLocation()
    expect((await rejection(openSqliteStore(path, { readonly: true }))).code).toBe('not_found')
    await seeded(path)
    const pending = await rejection(openSqliteStore(path, { readonly: true, migrations: [...BASE, NEXT] }))
    expect(pending.code).toBe('conflict')
    expect(pending.message).toContain(`needs migrating to ${N + 1}`)

    const ro = await openSqliteStore(path, { readonly: true, migrations: BASE })
    expect(await ro.counts()).toMatchObject({ tasks: 1 })
    expect((await ro.info()).readonly).toBe(true)
    expect(await ro.integrityCheck()).toEqual({ ok: true, messages: [] })
    const e = await rejection(ro.setSettings({ a: 1 }, ANA))
    expect(e.code).toBe('internal')
    expect(e.message).toMatch(/read-only/)
    await ro.close()
  })
})

describe('sqlite migrations 0004 and 0005: each fit\'s decisions in a table of their own, number lists as BLOBs from 0005', () => {
  const tmp = useTempDir()
  const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

  it('moves every fit\'s rows out of the shared table, indexes them, and the queue and detail read them', async () => {
    const path = tmp.dbLocation()
    const v3 = await openSqliteStore(path, { migrations: SQLITE_MIGRATIONS.slice(0, 3) })
    await importTasks(v3, ['t1', 't2', 't3'].map((id) => makeTask(id)))
    await v3.close()
    // Fits and decisions as the code before 0004 wrote them (the store's code writes the shipped
    // schema): fits without a bound, decisions in one shared table keyed by (fit, task).
    const [older, newer] = [randomUUID(), randomUUID()]
    const db = rawDb(path)
    try {
      const fit = db.prepare(`INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities) VALUES (?, ?, 'per-agent', '{}', '{}')`)
      fit.run(older, '2026-11-30T09:00:00.000Z')
      fit.run(newer, '2026-11-30T09:00:01.000Z')
      const insert = db.prepare(`INSERT INTO decisions (fit_id, task_id, decision, spot_check, answer, posterior, stop_round, gap, bound,
        disagreement, decided_at, task_created_at, task_group, ks, why, reason)
        SELECT ?, id, ?, ?, 'true', '{"true":0.6,"false":0.4}', NULL, ?, '[0.5]', 0.2, ?, created_at, grp, '[3]', NULL, 'gap' FROM tasks WHERE id = ?`)
      const rows: [string, string, string, number, number][] = [
        [older, 't1', 'act', 0, -0.4], [older, 't2', 'act', 0, -0.3], [older, 't3', 'defer', 0, 0.1],
        [newer, 't1', 'defer', 1, 0.3], [newer, 't2', 'act', 0, -0.2], [newer, 't3', 'defer', 0, 0.2]
      ]
      for (const [fit, task, kind, spot, gap] of rows) insert.run(fit, kind, spot, gap, '2026-11-30T10:00:00.000Z', task)
      const decide = db.prepare('UPDATE fits SET decided_at = ?, decision_count = 3, deferred_count = ?, spot_count = ? WHERE id = ?')
      decide.run('2026-11-30T10:00:00.000Z', 1, 0, older)
      decide.run('2026-11-30T11:00:00.000Z', 2, 1, newer)
    } finally {
      db.close()
    }

    const store = await openSqliteStore(path)
    try {
      expect((await store.info()).migration).toMatchObject({ from: 3, applied: SQLITE_MIGRATIONS.slice(3).map((m) => m.version) })
      expect(tableNames(path)).not.toContain('decisions')
      expect(tableNames(path)).toEqual(expect.arrayContaining([decisionsTable(older), decisionsTable(newer), 'decisions_none']))
      const page = await store.queuePage({ filter: { ...NO_FILTER, decision: 'defer' }, sort: 'gap', direction: 'asc', offset: 0, limit: 10 })
      expect(page.fitId).toBe(newer)
      expect(page.rows.map((r) => [r.taskId, r.gap, r.spotCheck, r.fitId, r.decidedAt])).toEqual([
        ['t3', 0.2, false, newer, '2026-11-30T11:00:00.000Z'],
        ['t1', 0.3, true, newer, '2026-11-30T11:00:00.000Z']
      ])
      const detail = await store.taskDetail('t3')
      // JSON text, as fits decided before 0005 keep it, read as ever.
      expect(detail.decision).toMatchObject({ fitId: newer, decision: 'defer', gap: 0.2, k: [3], reason: 'gap', decidedAt: '2026-11-30T11:00:00.000Z' })
      expect(detail.decision).toMatchObject({ posterior: { true: 0.6, false: 0.4 }, bound: [0.5], why: null })
      expect(page.rows[0]).toMatchObject({ posterior: { true: 0.6, false: 0.4 }, bound: [0.5] })
      expect(detail.previousDecision).toMatchObject({ fitId: older, decision: 'defer', gap: 0.1, decidedAt: '2026-11-30T10:00:00.000Z' })
      expect(await store.counts()).toMatchObject({ deferred: 2, acted: 1, spotCheck: 1 })
      expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
      // A fit decided after 0005 stores its number lists as float64 BLOBs, beside the JSON of older fits.
      const next = (await store.saveFit(FIT, ANA)).value.id
      await saveDecisions(store, next, [{ taskId: 't3', decision: 'defer', spotCheck: false, answer: 'true', posterior: { false: 0.25, true: 0.75 }, stopRound: null, gap: 0.05, bound: [0.5, null], disagreement: 0, k: [3, 5], why: { round: 1, k: 5, qhat: 0.5, bias: 0, conc: 0.1 } }], ANA)
      expect((await store.taskDetail('t3')).decision).toMatchObject({ fitId: next, posterior: { true: 0.75, false: 0.25 }, bound: [0.5, null], k: [3, 5], why: { round: 1, k: 5, qhat: 0.5, bias: 0, conc: 0.1 } })
      expect((await store.taskDetail('t3')).previousDecision).toMatchObject({ fitId: newer, posterior: { true: 0.6, false: 0.4 }, bound: [0.5], k: [3] })
      const raw = rawDb(path, true)
      try {
        const types = (fit: string) => raw.prepare(`SELECT typeof(posterior) AS p, typeof(bound) AS b, typeof(ks) AS k, typeof(why) AS w FROM ${decisionsTable(fit)} WHERE task_id = 't3'`).get()
        expect(types(next)).toEqual({ p: 'blob', b: 'blob', k: 'blob', w: 'blob' })
        expect(types(newer)).toEqual({ p: 'text', b: 'text', k: 'text', w: 'null' })
        const blob = raw.prepare(`SELECT posterior FROM ${decisionsTable(next)}`).pluck().get() as Buffer
        // Candidate order [true, false], little-endian float64.
        expect([blob.readDoubleLE(0), blob.readDoubleLE(8)]).toEqual([0.75, 0.25])
      } finally {
        raw.close()
      }
      expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
    } finally {
      await store.close()
    }
    const check = rawDb(path, true)
    try {
      const indexes = (check.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name`).all(decisionsTable(newer)) as { name: string }[]).map((r) => r.name)
      expect(indexes).toEqual(['by_age', 'by_disagreement', 'by_gap', 'by_group'].map((s) => `${decisionsTable(newer)}_${s}`))
    } finally {
      check.close()
    }
  })

  it('reports a decided fit whose table is missing, a count its table does not hold, and a table without a fit', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    await importTasks(store, [makeTask('t1')])
    const fit = (await store.saveFit(FIT, ANA)).value.id
    await saveDecisions(store, fit, [{ taskId: 't1', decision: 'defer', spotCheck: false, answer: null, posterior: { true: 0.5, false: 0.5 }, stopRound: null, gap: 0.1, bound: null, disagreement: 0 }], ANA)
    expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
    await store.close()
    const db = rawDb(path)
    try {
      db.exec(`CREATE TABLE decisions_00000000000000000000000000000000 (task_id TEXT PRIMARY KEY)`)
      db.exec(`DROP TRIGGER ${decisionsTable(fit)}_kept`)
      db.exec(`DELETE FROM ${decisionsTable(fit)}`)
    } finally {
      db.close()
    }
    const again = await openSqliteStore(path)
    try {
      const report = await again.integrityCheck()
      expect(report.ok).toBe(false)
      expect(report.messages).toEqual([
        `fit ${fit} counts 1 decisions but its table ${decisionsTable(fit)} holds 0`,
        'decisions table decisions_00000000000000000000000000000000 belongs to no fit'
      ])
    } finally {
      await again.close()
    }
  })
})
