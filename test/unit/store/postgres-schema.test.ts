/**
 * PostgreSQL-specific guarantees, checked through a second, raw connection: what the triggers
 * refuse, the open-time sweep and the import locks, the data version, the integrity check, migrations (recorded with
 * their sha256; edited or newer schemas refused; a failure rolls back), the URL handling of
 * `openStore`, and the same semantics as SQLite under truly concurrent clients.
 */
import { decisionsTable, NO_FIT_DECISIONS } from '../../../src/main/store/fit-decisions'
import pg from 'pg'
import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { openPostgresStore, openStore, POSTGRES_MIGRATIONS, StoreError, type Migration, type Store } from '../../../src/main/store'
import { migrationSha256 } from '../../../src/main/store/migrations'
import { PgImportLocks } from '../../../src/main/store/postgres/import-lock'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'
import { ANA, appendDecisions, BO, decision, importTasks, makeTask, rejection, saveDecisions, sha } from './fixtures'

const cluster = usePostgres()

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }
/** The latest shipped version (numbers may skip one: a branch keeps its number until the lead renumbers at merge). */
const N = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1].version
const NEXT: Migration = { version: N + 1, name: 'add-notes', sql: 'CREATE TABLE notes (id text PRIMARY KEY, body text NOT NULL);\nALTER TABLE settings ADD COLUMN origin text;' }
const BAD: Migration = { version: N + 2, name: 'broken', sql: 'CREATE TABLE extra (x integer);\nSELECT no_such_column FROM no_such_table;' }

/** A raw connection to the same database: what another process (or psql) could do. */
async function raw<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

const count = (url: string, sql: string): Promise<number> => raw(url, async (c) => Number((await c.query(sql)).rows[0].n))

async function withLabelAndDecision(url: string): Promise<{ labelId: string; fitId: string }> {
  const store = await openPostgresStore(url)
  await importTasks(store, [makeTask('t1'), makeTask('t2')])
  const label = await store.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
  const fit = await store.saveFit(FIT, ANA)
  await saveDecisions(store, fit.value.id, [decision('t1', 'act', -0.2), decision('t2', 'defer', 0.3)], ANA)
  await store.close()
  return { labelId: label.value.labelId, fitId: fit.value.id }
}

describeWith(POSTGRES, 'postgres schema guarantees', () => {
  it('keeps flags append-only (no UPDATE, DELETE or TRUNCATE) and refuses an empty reason, even through raw SQL', async () => {
    const url = await cluster().createDatabase()
    await withLabelAndDecision(url)
    const store = await openPostgresStore(url)
    const flag = await store.flagTask({ taskId: 't1', reason: 'unclear' }, ANA)
    await store.close()
    await raw(url, async (c) => {
      await expect(c.query(`UPDATE flags SET reason = 'edited' WHERE id = $1`, [flag.value.id])).rejects.toThrow(/append-only/)
      await expect(c.query('DELETE FROM flags')).rejects.toThrow(/append-only/)
      await expect(c.query('TRUNCATE flags')).rejects.toThrow(/append-only/)
      await expect(c.query(`INSERT INTO flags (id, task_id, reviewer, reason, at, session_id) VALUES ('f2', 't1', 'x', '', '2026-01-01T00:00:00.000Z', 's')`)).rejects.toThrow(/check constraint/)
      expect((await c.query('SELECT reason FROM flags')).rows).toEqual([{ reason: 'unclear' }])
    })
  })

  it('refuses UPDATE, DELETE and TRUNCATE on labels and the audit log, even through raw SQL', async () => {
    const url = await cluster().createDatabase()
    const { labelId } = await withLabelAndDecision(url)
    await raw(url, async (c) => {
      await expect(c.query(`UPDATE labels SET label = 'false' WHERE id = $1`, [labelId])).rejects.toThrow(/append-only/)
      await expect(c.query('DELETE FROM labels WHERE id = $1', [labelId])).rejects.toThrow(/append-only/)
      await expect(c.query('TRUNCATE labels CASCADE')).rejects.toThrow(/append-only/)
      await expect(c.query(`UPDATE audit_log SET reviewer = 'mallory'`)).rejects.toThrow(/append-only/)
      await expect(c.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/)
      await expect(c.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/)
      expect((await c.query('SELECT count(*)::int AS n FROM labels')).rows).toEqual([{ n: 1 }])
      // A row may supersede a label only once, and only within its task.
      const insert = (id: string, task: string) =>
        c.query(`INSERT INTO labels (id, task_id, label, source, reviewer, at, supersedes, session_id)
                 VALUES ($1, $2, NULL, 'random', 'x', '2026-01-01T00:00:00.000Z', $3, 's')`, [id, task, labelId])
      await expect(insert('u2', 't2')).rejects.toThrow(/same task/)
      await insert('u1', 't1')
      await expect(insert('u3', 't1')).rejects.toThrow(/labels_superseded_once/)
    })
  })

  it('keeps published tasks, moves, tallies and decisions immutable (only the version moves)', async () => {
    const url = await cluster().createDatabase()
    const { fitId } = await withLabelAndDecision(url)
    await raw(url, async (c) => {
      await expect(c.query(`UPDATE tasks SET gold = 'false' WHERE id = 't1'`)).rejects.toThrow(/immutable/)
      await expect(c.query(`DELETE FROM tasks WHERE id = 't2'`)).rejects.toThrow(/cannot be deleted/)
      await expect(c.query(`UPDATE task_moves SET moves = '[]' WHERE task_id = 't1'`)).rejects.toThrow(/immutable/)
      await expect(c.query(`DELETE FROM task_moves WHERE task_id = 't2'`)).rejects.toThrow(/cannot be deleted/)
      await expect(c.query(`UPDATE tasks SET move_count = 0 WHERE id = 't1'`)).rejects.toThrow(/immutable/)
      await expect(c.query(`UPDATE ${decisionsTable(fitId)} SET decision = 'act'`)).rejects.toThrow(/immutable/)
      await expect(c.query(`DELETE FROM ${decisionsTable(fitId)}`)).rejects.toThrow(/immutable/)
      await expect(c.query(`TRUNCATE ${decisionsTable(fitId)}`)).rejects.toThrow(/immutable/)
      await expect(c.query(`INSERT INTO ${NO_FIT_DECISIONS} (task_id, decision, spot_check, posterior, task_created_at) VALUES ('t1', 'act', false, '{}', 'x')`)).rejects.toThrow(/stays empty/)
      await expect(c.query(`UPDATE fits SET decision_count = 0`)).rejects.toThrow(/already saved/)
      await expect(c.query(`UPDATE imports SET state = 'abandoned'`)).rejects.toThrow(/only a staged import/)
      await expect(c.query(`DELETE FROM imports`)).rejects.toThrow(/cannot be deleted/)
      expect((await c.query(`UPDATE tasks SET version = version + 1 WHERE id = 't2'`)).rowCount).toBe(1)
    })
  })

  it('sweeps abandoned imports and dead staged ones at open, at once, and leaves a live one alone', async () => {
    const url = await cluster().createDatabase()
    const store: Store = await openPostgresStore(url)
    await importTasks(store, [makeTask('kept')])
    const abandoned = await store.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
    await store.writeImportBatch(abandoned.value.id, { tasks: [makeTask('gone-1')], seats: [{ id: 'S9', model: null }] })
    await store.abandonImport(abandoned.value.id)
    const live = await store.beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
    await store.writeImportBatch(live.value.id, { tasks: [makeTask('gone-2')] })
    const crashedStore = await openPostgresStore(url)
    const crashed = await crashedStore.beginImport({ fileName: 'c.jsonl', sha256: sha('c'), kind: 'traces' }, ANA)
    await crashedStore.writeImportBatch(crashed.value.id, { tasks: [makeTask('gone-3')] })
    await crashedStore.close() // like a kill: the staged import is never published nor abandoned, its lock's session is gone
    // The abandoned import went at the second store's open already.
    expect(await count(url, 'SELECT count(*) AS n FROM tasks')).toBe(3)
    expect(await count(url, `SELECT count(*) AS n FROM seats WHERE id = 'S9'`)).toBe(0)
    // The live import's lock: a session of its own, keepalives set so a vanished client frees it in under a minute.
    const holder = await raw(url, async (c) => (await c.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted`)).rows as { pid: number }[])
    expect(holder).toHaveLength(1)

    // The next open: the dead import goes; the live one (its store is open) stays.
    const next = await openPostgresStore(url)
    await next.close()
    expect(await count(url, 'SELECT count(*) AS n FROM tasks')).toBe(2)
    expect(await count(url, `SELECT count(*) AS n FROM imports WHERE id IN ('${abandoned.value.id}', '${crashed.value.id}')`)).toBe(0)

    // Once its store is gone too, the next open sweeps it; published data stays.
    await store.close()
    const last = await openPostgresStore(url)
    expect(await last.counts()).toMatchObject({ tasks: 1, moves: 4 })
    expect(await last.integrityCheck()).toEqual({ ok: true, messages: [] })
    await last.close()
    expect(await count(url, 'SELECT count(*) AS n FROM tasks')).toBe(1)
    expect(await count(url, 'SELECT count(*) AS n FROM task_moves')).toBe(1)
    expect(await count(url, 'SELECT count(*) AS n FROM task_search')).toBe(1)
    expect(await count(url, 'SELECT count(*) AS n FROM imports')).toBe(1)
  })

  it("holds an import's lock on a connection of its own with TCP keepalives (idle 10 s, interval 5 s, 3 probes)", async () => {
    const url = await cluster().createDatabase()
    const locks = new PgImportLocks(url)
    const other = new PgImportLocks(url)
    try {
      expect(await locks.take('imp-1')).toBe(true)
      expect(await other.take('imp-1')).toBe(false) // held: its importer is alive
      const own = locks.clientOf('imp-1') as pg.Client
      const setting = async (name: string) => (await own.query(`SELECT current_setting($1) AS v`, [name])).rows[0].v as string
      expect([await setting('tcp_keepalives_idle'), await setting('tcp_keepalives_interval'), await setting('tcp_keepalives_count')]).toEqual(['10', '5', '3'])
      await locks.release('imp-1')
      expect(locks.holds('imp-1')).toBe(false)
      expect(await other.take('imp-1')).toBe(true) // released: anyone may take it (and sweep its import)
    } finally {
      await locks.releaseAll()
      await other.releaseAll()
    }
  })

  it('notices other stores’ commits through the data version, not its own', async () => {
    const url = await cluster().createDatabase()
    const a = await openPostgresStore(url)
    const b = await openPostgresStore(url)
    try {
      const v0 = await a.dataVersion()
      await a.setSettings({ own: 1 }, ANA)
      expect(await a.dataVersion()).toBe(v0)
      await b.setSettings({ other: 1 }, ANA)
      expect(await a.dataVersion()).not.toBe(v0)
      expect(await a.getSettings()).toEqual({ own: 1, other: 1 })
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('migration 0002 moves every fit\'s decisions into a table of its own, indexed, and 0004 turns their number lists into float64 bytes; queue, detail and checks read them', async () => {
    const url = await cluster().createDatabase()
    const v1 = await openPostgresStore(url, { migrations: POSTGRES_MIGRATIONS.slice(0, 1) })
    await importTasks(v1, ['t1', 't2', 't3'].map((id) => makeTask(id)))
    await v1.close()
    const [older, newer] = [randomUUID(), randomUUID()]
    await raw(url, async (c) => {
      // Fits and decisions as the code before 0002 wrote them (the store's code writes the shipped
      // schema): fits without a bound, decisions in one shared table keyed by (fit, task).
      const fit = `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities) VALUES ($1, $2, 'per-agent', '{}', '{}')`
      await c.query(fit, [older, '2026-11-30T09:00:00.000Z'])
      await c.query(fit, [newer, '2026-11-30T09:00:01.000Z'])
      const rows: [string, string, string, boolean, number][] = [
        [older, 't1', 'act', false, -0.4], [older, 't2', 'act', false, -0.3], [older, 't3', 'defer', false, 0.1],
        [newer, 't1', 'defer', true, 0.3], [newer, 't2', 'act', false, -0.2], [newer, 't3', 'defer', false, 0.2]
      ]
      for (const [fit, task, kind, spot, gap] of rows) {
        await c.query(
          `INSERT INTO decisions (fit_id, task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement, decided_at,
             task_created_at, task_group, ks, why, reason)
           SELECT $1, id, $2, $3, 'true', '{"false":0.4,"true":0.6}', NULL, $4, '[0.5,null]', 0.2, '2026-11-30T10:00:00.000Z', created_at, grp, '[3,null]',
             CASE WHEN id = 't3' THEN '{"round":1,"k":8,"n":9,"qhat":0.9,"bias":0.01,"conc":0.1}'::json
                  WHEN id = 't2' THEN '{"round":2,"k":16,"qhat":0.8,"bias":0,"conc":0.2}'::json END, 'gap'
           FROM tasks WHERE id = $5`,
          [fit, kind, spot, gap, task]
        )
      }
      const decide = 'UPDATE fits SET decided_at = $1, decision_count = 3, deferred_count = $2, spot_count = $3 WHERE id = $4'
      await c.query(decide, ['2026-11-30T10:00:00.000Z', 1, 0, older])
      await c.query(decide, ['2026-11-30T11:00:00.000Z', 2, 1, newer])
    })
    const store = await openPostgresStore(url)
    try {
      expect((await store.info()).migration).toMatchObject({ from: 1, applied: POSTGRES_MIGRATIONS.slice(1).map((m) => m.version) })
      const page = await store.queuePage({ filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 10 })
      expect(page.fitId).toBe(newer)
      expect(page.rows.map((r) => [r.taskId, r.gap, r.spotCheck, r.fitId, r.decidedAt])).toEqual([
        ['t3', 0.2, false, newer, '2026-11-30T11:00:00.000Z'],
        ['t1', 0.3, true, newer, '2026-11-30T11:00:00.000Z']
      ])
      const detail = await store.taskDetail('t3')
      expect(detail.decision).toMatchObject({ fitId: newer, decision: 'defer', gap: 0.2, k: [3, null], bound: [0.5, null], reason: 'gap' })
      // The posterior in the task's candidate order [true, false], whatever the JSON's key order; `n` kept when it was there.
      expect(detail.decision?.posterior).toEqual({ true: 0.6, false: 0.4 })
      expect(Object.keys(detail.decision?.posterior ?? {})).toEqual(['true', 'false'])
      expect(detail.decision?.why).toEqual({ round: 1, k: 8, n: 9, qhat: 0.9, bias: 0.01, conc: 0.1 })
      expect((await store.taskDetail('t2')).decision?.why).toEqual({ round: 2, k: 16, qhat: 0.8, bias: 0, conc: 0.2 })
      expect((await store.taskDetail('t1')).decision?.why).toBeNull()
      expect(page.rows.map((r) => [r.posterior, r.bound])).toEqual([[{ true: 0.6, false: 0.4 }, [0.5, null]], [{ true: 0.6, false: 0.4 }, [0.5, null]]])
      expect(detail.previousDecision).toMatchObject({ fitId: older, decision: 'defer', gap: 0.1, decidedAt: '2026-11-30T10:00:00.000Z' })
      expect(await store.counts()).toMatchObject({ deferred: 2, acted: 1, spotCheck: 1 })
      expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
    } finally {
      await store.close()
    }
    expect(await count(url, `SELECT count(*) AS n FROM pg_tables WHERE tablename = 'decisions'`)).toBe(0)
    expect(await count(url, `SELECT count(*) AS n FROM pg_indexes WHERE tablename = '${decisionsTable(older)}'`)).toBe(5)
    expect(await count(url, `SELECT count(*) AS n FROM information_schema.columns
      WHERE table_name IN ('${decisionsTable(older)}', 'decisions_none') AND column_name IN ('posterior', 'bound', 'ks', 'why') AND data_type = 'bytea'`)).toBe(8)
    // A table no fit owns, or a fit whose table lost rows, is reported.
    await raw(url, async (c) => {
      await c.query(`SET session_replication_role = replica`)
      await c.query(`DELETE FROM ${decisionsTable(older)} WHERE task_id = 't1'`)
      await c.query('CREATE TABLE decisions_00000000000000000000000000000000 (task_id text PRIMARY KEY)')
    })
    const checked = await openPostgresStore(url)
    try {
      expect((await checked.integrityCheck()).messages).toEqual([
        `fit ${older} counts 3 decisions but its table ${decisionsTable(older)} holds 2`,
        'decisions table decisions_00000000000000000000000000000000 belongs to no fit'
      ])
    } finally {
      await checked.close()
    }
  })

  it('reports orphaned rows in its integrity check', async () => {
    const url = await cluster().createDatabase()
    await withLabelAndDecision(url)
    await raw(url, async (c) => {
      // Replica mode skips foreign-key and other triggers: what a careless restore could leave.
      await c.query(`SET session_replication_role = replica`)
      await c.query(`INSERT INTO labels (id, task_id, label, source, reviewer, at, session_id)
                     VALUES ('orphan', 'no-such-task', 'true', 'random', 'x', '2026-01-01T00:00:00.000Z', 's')`)
    })
    const store = await openPostgresStore(url)
    const report = await store.integrityCheck()
    await store.close()
    expect(report.ok).toBe(false)
    expect(report.messages.join('\n')).toMatch(/labels .*tasks/)
  })

  it('matches the queue search’s semantics: word prefixes, all required, case and accents folded', async () => {
    const url = await cluster().createDatabase()
    const store = await openPostgresStore(url)
    try {
      await importTasks(store, [
        { ...makeTask('a'), question: 'Le café est-il bon?' },
        { ...makeTask('b'), question: 'CAFETERIA hours_open' },
        { ...makeTask('c'), question: null }
      ])
      const search = async (text: string) =>
        (await store.filteredTasks({ decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: text }, null, 10)).map((r) => r.taskId)
      expect(await search('cafe')).toEqual(['a', 'b'])
      expect(await search('Café bo')).toEqual(['a'])
      expect(await search('open')).toEqual(['b'])
      expect(await search('afe')).toEqual([])
      expect(await search('c')).toEqual(['a', 'b', 'c']) // a word prefix, or the exact task id
      expect(await search("' OR 1=1 --")).toEqual([])
    } finally {
      await store.close()
    }
  })
})

describeWith(POSTGRES, 'postgres migrations', () => {
  const applied = (url: string) =>
    raw(url, async (c) => (await c.query('SELECT version, name, sha256 FROM schema_migrations ORDER BY version')).rows as { version: number; name: string; sha256: string }[])

  it('creates a new database at the latest version, records each sha256, takes no backup', async () => {
    const url = await cluster().createDatabase()
    const store = await openPostgresStore(url)
    const info = await store.info()
    const all = POSTGRES_MIGRATIONS.map((m) => m.version)
    expect(info).toMatchObject({ backend: 'postgres', schemaVersion: N, readonly: false })
    expect(info.migration).toEqual({ from: 0, to: N, applied: all, backupPath: null })
    await store.close()
    expect(await applied(url)).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, name: m.name, sha256: migrationSha256(m) })))
    const again = await openPostgresStore(url)
    expect((await again.info()).migration).toBeNull()
    await again.close()
  })

  it('upgrades an earlier version, keeping the data', async () => {
    const url = await cluster().createDatabase()
    await withLabelAndDecision(url)
    const store = await openPostgresStore(url, { migrations: [...POSTGRES_MIGRATIONS, NEXT] })
    expect((await store.info()).migration).toEqual({ from: N, to: N + 1, applied: [N + 1], backupPath: null })
    expect(await store.counts()).toMatchObject({ tasks: 2, labels: 1 })
    await store.close()
    expect(await count(url, `SELECT count(*) AS n FROM pg_tables WHERE tablename = 'notes'`)).toBe(1)
  })

  it('refuses a database newer than the code, and an applied migration whose SQL was edited', async () => {
    const url = await cluster().createDatabase()
    await (await openPostgresStore(url, { migrations: [...POSTGRES_MIGRATIONS, NEXT] })).close()
    const newer = await rejection(openPostgresStore(url))
    expect(newer).toBeInstanceOf(StoreError)
    expect(newer.code).toBe('conflict')
    expect(newer.message).toContain(`version ${N + 1}, newer than this build of Arbiter knows (latest ${N})`)
    const edited: Migration = { ...NEXT, sql: NEXT.sql.replace('NOT NULL', '') }
    const e = await rejection(openPostgresStore(url, { migrations: [...POSTGRES_MIGRATIONS, edited] }))
    expect(e.code).toBe('conflict')
    expect(e.message).toContain(`"add-notes" was edited after it was applied`)
    expect(e.details).toMatchObject({ version: N + 1, recorded: migrationSha256(NEXT), code: migrationSha256(edited) })
  })

  it('rolls a failed migration back as a whole, leaving the database as it was', async () => {
    const url = await cluster().createDatabase()
    await withLabelAndDecision(url)
    const e = await rejection(openPostgresStore(url, { migrations: [...POSTGRES_MIGRATIONS, NEXT, BAD] }))
    expect(e.code).toBe('internal')
    expect(e.message).toContain(`"broken" failed and was rolled back`)
    expect(e.message).toContain(`unchanged at version ${N}`)
    expect((await applied(url)).map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version))
    expect(await count(url, `SELECT count(*) AS n FROM pg_tables WHERE tablename IN ('notes', 'extra')`)).toBe(0)
    const store = await openPostgresStore(url)
    expect(await store.counts()).toMatchObject({ tasks: 2, labels: 1 })
    await store.close()
  })

  it('migrates once when several stores open a new database at the same time', async () => {
    const url = await cluster().createDatabase()
    const stores = await Promise.all([0, 1, 2].map(() => openPostgresStore(url)))
    const reports = await Promise.all(stores.map(async (s) => (await s.info()).migration))
    expect(reports.filter((r) => r !== null)).toHaveLength(1)
    await Promise.all(stores.map((s) => s.close()))
  })

  it('refuses a database that is not Arbiter’s, and opens read-only without migrating or writing', async () => {
    const foreign = await cluster().createDatabase()
    await raw(foreign, (c) => c.query('CREATE TABLE something (x integer)'))
    const e = await rejection(openPostgresStore(foreign))
    expect(e.code).toBe('bad_input')
    expect(e.message).toMatch(/not an Arbiter database/)

    const url = await cluster().createDatabase()
    await withLabelAndDecision(url)
    const pending = await rejection(openPostgresStore(url, { readonly: true, migrations: [...POSTGRES_MIGRATIONS, NEXT] }))
    expect(pending.code).toBe('conflict')
    expect(pending.message).toContain(`needs migrating to ${N + 1}`)
    const ro = await openPostgresStore(url, { readonly: true })
    expect((await ro.info()).readonly).toBe(true)
    expect(await ro.counts()).toMatchObject({ tasks: 2 })
    const w = await rejection(ro.setSettings({ a: 1 }, ANA))
    expect(w.code).toBe('internal')
    expect(w.message).toMatch(/read-only/)
    await ro.close()
  })
})

describeWith(POSTGRES, 'openStore with a PostgreSQL URL', () => {
  it('opens PostgreSQL for postgres:// and postgresql:// URLs, reporting the URL without its password', async () => {
    const url = new URL(await cluster().createDatabase())
    url.password = 's3cret' // trust authentication ignores it
    for (const scheme of ['postgres:', 'postgresql:']) {
      const u = new URL(url)
      u.protocol = scheme
      const store = await openStore(u.toString())
      const info = await store.info()
      expect(info.backend).toBe('postgres')
      expect(info.dbLocation).not.toContain('s3cret')
      expect(info.dbLocation).toContain(url.pathname)
      await store.close()
    }
  })

  it('reports an unreachable server or a missing database without echoing a password', async () => {
    const down = await rejection(openStore('postgres://arbiter:s3cret@127.0.0.1:1/arbiter'))
    expect(down.code).toBe('not_found')
    expect(down.message).not.toContain('s3cret')
    const missing = new URL(cluster().adminUrl)
    missing.pathname = '/no_such_database'
    missing.password = 's3cret'
    const e = await rejection(openStore(missing.toString()))
    expect(e.code).toBe('not_found')
    expect(e.message).not.toContain('s3cret')
  })
})

describeWith(POSTGRES, 'postgres under concurrent clients', () => {
  it('lets exactly one of two stale-equal resolves write; the other is a conflict', async () => {
    const url = await cluster().createDatabase()
    const a = await openPostgresStore(url)
    const b = await openPostgresStore(url)
    try {
      const tasks = Array.from({ length: 8 }, (_, i) => makeTask(`t${i}`))
      await importTasks(a, tasks)
      for (const t of tasks) {
        const results = await Promise.allSettled([
          a.recordLabel({ taskId: t.id, label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA),
          b.recordLabel({ taskId: t.id, label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO)
        ])
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
        const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
        expect((failed.reason as StoreError).code).toBe('conflict')
        expect(await a.liveLabels(t.id)).toHaveLength(1)
        expect((await a.getTaskSummary(t.id)).version).toBe(1)
      }
      expect((await a.auditTail(100)).filter((x) => x.action === 'label.record')).toHaveLength(tasks.length)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('writes a fit’s decisions once, publishes an import once, and gives a free task to one session', async () => {
    const url = await cluster().createDatabase()
    const a = await openPostgresStore(url)
    const b = await openPostgresStore(url)
    try {
      const begun = await a.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      await a.writeImportBatch(begun.value.id, { tasks: [makeTask('t1'), makeTask('t2')] })
      const publishes = await Promise.allSettled([a.publishImport(begun.value.id, ANA), b.publishImport(begun.value.id, BO)])
      expect(publishes.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(((publishes.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as StoreError).code).toBe('conflict')

      const fit = await a.saveFit(FIT, ANA)
      // Two pages deciding one task: one lands whole, the other is refused whole.
      const pages = await Promise.allSettled([
        appendDecisions(a, fit.value.id, [decision('t1', 'act', -0.1), decision('t2', 'defer', 0.2)]),
        appendDecisions(b, fit.value.id, [decision('t1', 'defer', 0.1)])
      ])
      expect(pages.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(((pages.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as StoreError).message).toMatch(/task t1 appears twice/)
      // Two finishes of one fit: one makes it current, the other finds it decided.
      const finishes = await Promise.allSettled([a.finishDecisions(fit.value.id, ANA), b.finishDecisions(fit.value.id, BO)])
      expect(finishes.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(((finishes.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as StoreError).code).toBe('conflict')
      const decided = await a.latestFit()
      expect(await count(url, `SELECT count(*) AS n FROM ${decisionsTable(fit.value.id)}`)).toBe(decided?.decisionCount)

      const reserves = await Promise.all([a.reserveTask('t1', ANA, 60_000), b.reserveTask('t1', BO, 60_000)])
      expect(reserves.filter((r) => r.value.mine !== null)).toHaveLength(1)
      expect(reserves.filter((r) => r.value.heldBy !== null)).toHaveLength(1)
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describeWith(POSTGRES, 'postgres queue plans', () => {
  it('can serve every review-queue order of one fit from its index (no sort of the fit’s rows)', async () => {
    const url = await cluster().createDatabase()
    const store = await openPostgresStore(url)
    const tasks = Array.from({ length: 300 }, (_, i) => makeTask(`t${i}`, { group: `G${i % 7}` }))
    await importTasks(store, tasks)
    for (let f = 0; f < 2; f++) {
      const fit = await store.saveFit(FIT, ANA)
      await saveDecisions(store, fit.value.id, tasks.map((t, i) => decision(t.id, i % 3 === 0 ? 'act' : 'defer', ((i * 7919) % 300) / 300)), ANA)
    }
    const table = decisionsTable((await store.latestFit())?.id as string)
    // The queue's own ORDER BY text, as task-filter.ts builds it.
    const { orderBy } = await import('../../../src/main/store/ops/task-filter')
    const { POSTGRES } = await import('../../../src/main/store/postgres/dialect')
    await store.close()
    const select = `SELECT d.task_id FROM ${table} d JOIN tasks t ON t.id = d.task_id WHERE d.decision = 'defer'`
    const cases: [string, string][] = [
      [`${table}_by_gap`, orderBy(POSTGRES, 'gap', 'asc', 'decided')],
      [`${table}_by_gap`, orderBy(POSTGRES, 'gap', 'desc', 'decided')],
      [`${table}_by_age`, orderBy(POSTGRES, 'age', 'asc', 'decided')],
      [`${table}_by_disagreement`, orderBy(POSTGRES, 'disagreement', 'asc', 'decided')],
      [`${table}_by_disagreement`, orderBy(POSTGRES, 'disagreement', 'desc', 'decided')],
      [`${table}_by_group`, orderBy(POSTGRES, 'group', 'asc', 'decided')]
    ]
    await raw(url, async (c) => {
      await c.query('ANALYZE')
      await c.query('SET enable_sort = off') // a Sort node left in the plan means no index can give the order
      for (const [index, order] of cases) {
        const plan = JSON.stringify((await c.query(`EXPLAIN (FORMAT JSON) ${select} ORDER BY ${order} LIMIT 50`)).rows)
        expect(plan, order).toContain(`"Index Name":"${index}"`)
        expect(plan, order).not.toMatch(/"Node Type":"(Incremental )?Sort"/)
      }
    })
  })
})
