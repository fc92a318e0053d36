/**
 * SQLite-specific guarantees, checked through a second raw connection: what the triggers refuse,
 * what the open-time sweep removes, and that the review queue's orders are index walks.
 */
import { readdirSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteStore, openStore, type Store } from '../../../src/main/store'
import { ANA, decision, importTasks, makeTask, rejection, saveDecisions, sha } from './fixtures'
import { rawDb, useTempDir } from './sqlite-helpers'
import { decisionsTable, NO_FIT_DECISIONS } from '../../../src/main/store/fit-decisions'

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

async function withLabelAndDecision(path: string): Promise<{ labelId: string; fitId: string }> {
  const store = await openSqliteStore(path)
  await importTasks(store, [makeTask('t1'), makeTask('t2')])
  const label = await store.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
  const fit = await store.saveFit(FIT, ANA)
  await saveDecisions(store, fit.value.id, [decision('t1', 'act', -0.2), decision('t2', 'defer', 0.3)], ANA)
  await store.close()
  return { labelId: label.value.labelId, fitId: fit.value.id }
}

describe('sqlite schema guarantees', () => {
  const tmp = useTempDir()

  it('keeps flags append-only (no UPDATE, no DELETE) and refuses an empty reason, even through raw SQL', async () => {
    const path = tmp.dbLocation()
    await withLabelAndDecision(path)
    const store = await openSqliteStore(path)
    const flag = await store.flagTask({ taskId: 't1', reason: 'unclear' }, ANA)
    await store.close()
    const db = rawDb(path)
    try {
      expect(() => db.prepare(`UPDATE flags SET reason = 'edited' WHERE id = ?`).run(flag.value.id)).toThrow(/append-only/)
      expect(() => db.prepare('DELETE FROM flags').run()).toThrow(/append-only/)
      expect(() => db.prepare(`INSERT INTO flags (id, task_id, reviewer, reason, at, session_id) VALUES ('f2', 't1', 'x', '', '2026-01-01T00:00:00.000Z', 's')`).run()).toThrow(/CHECK/)
      expect(() => db.prepare(`INSERT INTO flags (id, task_id, reviewer, reason, at, session_id) VALUES ('f3', 'nope', 'x', 'r', '2026-01-01T00:00:00.000Z', 's')`).run()).toThrow(/FOREIGN KEY/)
      expect(db.prepare('SELECT reason FROM flags').all()).toEqual([{ reason: 'unclear' }])
    } finally {
      db.close()
    }
  })

  it('refuses UPDATE and DELETE on labels and the audit log, even through raw SQL', async () => {
    const path = tmp.dbLocation()
    const { labelId } = await withLabelAndDecision(path)
    const db = rawDb(path)
    try {
      expect(() => db.prepare(`UPDATE labels SET label = 'false' WHERE id = ?`).run(labelId)).toThrow(/append-only/)
      expect(() => db.prepare('DELETE FROM labels WHERE id = ?').run(labelId)).toThrow(/append-only/)
      expect(() => db.prepare('DELETE FROM labels').run()).toThrow(/append-only/)
      expect(() => db.prepare(`UPDATE audit_log SET reviewer = 'mallory'`).run()).toThrow(/append-only/)
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/)
      expect(db.prepare('SELECT count(*) AS n FROM labels').get()).toEqual({ n: 1 })
      // A row may supersede a label only once, and only within its task.
      const insert = db.prepare(
        `INSERT INTO labels (id, task_id, label, source, reviewer, at, supersedes, session_id)
         VALUES (?, ?, NULL, 'random', 'x', '2026-01-01T00:00:00.000Z', ?, 's')`
      )
      expect(() => insert.run('u2', 't2', labelId)).toThrow(/same task/)
      insert.run('u1', 't1', labelId)
      expect(() => insert.run('u3', 't1', labelId)).toThrow(/UNIQUE/)
    } finally {
      db.close()
    }
  })

  it('keeps published tasks, moves and decisions immutable (only the version moves)', async () => {
    const path = tmp.dbLocation()
    const { fitId } = await withLabelAndDecision(path)
    const db = rawDb(path)
    try {
      expect(() => db.prepare(`UPDATE tasks SET gold = 'false' WHERE id = 't1'`).run()).toThrow(/immutable/)
      expect(() => db.prepare(`DELETE FROM tasks WHERE id = 't2'`).run()).toThrow(/cannot be deleted/)
      expect(() => db.prepare(`UPDATE task_moves SET moves = '[]' WHERE task_id = 't1'`).run()).toThrow(/immutable/)
      expect(() => db.prepare(`DELETE FROM task_moves WHERE task_id = 't2'`).run()).toThrow(/cannot be deleted/)
      expect(() => db.prepare(`UPDATE tasks SET move_count = 0 WHERE id = 't1'`).run()).toThrow(/immutable/)
      expect(() => db.prepare(`UPDATE ${decisionsTable(fitId)} SET decision = 'act'`).run()).toThrow(/immutable/)
      expect(() => db.prepare(`DELETE FROM ${decisionsTable(fitId)}`).run()).toThrow(/kept with their fit/)
      expect(() => db.prepare(`INSERT INTO ${NO_FIT_DECISIONS} (task_id, decision, spot_check, posterior, task_created_at) VALUES ('t1', 'act', 0, '{}', 'x')`).run()).toThrow(/stays empty/)
      expect(() => db.prepare(`UPDATE imports SET state = 'abandoned'`).run()).toThrow(/only a staged import/)
      expect(() => db.prepare(`DELETE FROM imports`).run()).toThrow(/cannot be deleted/)
      expect(db.prepare(`UPDATE tasks SET version = version + 1 WHERE id = 't2'`).run().changes).toBe(1)
    } finally {
      db.close()
    }
  })

  it('sweeps abandoned imports and dead staged ones at open, at once, and leaves a live one alone', async () => {
    const path = tmp.dbLocation()
    const store: Store = await openSqliteStore(path)
    await importTasks(store, [makeTask('kept')])
    const abandoned = await store.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
    await store.writeImportBatch(abandoned.value.id, { tasks: [makeTask('gone-1')], seats: [{ id: 'S9', model: null }] })
    await store.abandonImport(abandoned.value.id)
    const live = await store.beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
    await store.writeImportBatch(live.value.id, { tasks: [makeTask('gone-2')] })
    const crashedStore = await openSqliteStore(path)
    const crashed = await crashedStore.beginImport({ fileName: 'c.jsonl', sha256: sha('c'), kind: 'traces' }, ANA)
    await crashedStore.writeImportBatch(crashed.value.id, { tasks: [makeTask('gone-3')] })
    await crashedStore.close() // like a kill: the staged import is never published nor abandoned, its lock is gone

    const count = (sql: string): number => {
      const db = rawDb(path, true)
      try {
        return (db.prepare(sql).get() as { n: number }).n
      } finally {
        db.close()
      }
    }
    // The abandoned import went at the second store's open already.
    expect(count('SELECT count(*) AS n FROM tasks')).toBe(3)
    expect(count(`SELECT count(*) AS n FROM seats WHERE id = 'S9'`)).toBe(0)
    const lockFiles = () => readdirSync(dirname(path)).filter((f) => f.includes('.import-'))
    expect(lockFiles()).toEqual([`${basename(path)}.import-${live.value.id}.lock`])

    // The next open, a second later: the dead import goes; the live one (its store is open) stays.
    const next = await openSqliteStore(path)
    await next.close()
    expect(count('SELECT count(*) AS n FROM tasks')).toBe(2)
    expect(count(`SELECT count(*) AS n FROM imports WHERE id IN ('${abandoned.value.id}', '${crashed.value.id}')`)).toBe(0)

    // Once its store is gone too, the next open sweeps it; published data stays, and no lock file is left.
    await store.close()
    const last = await openSqliteStore(path)
    expect(await last.counts()).toMatchObject({ tasks: 1, moves: 4 })
    expect(await last.integrityCheck()).toEqual({ ok: true, messages: [] })
    await last.close()
    expect(count('SELECT count(*) AS n FROM tasks')).toBe(1)
    expect(count('SELECT sum(move_count) AS n FROM tasks')).toBe(4)
    expect(count('SELECT count(*) AS n FROM task_moves')).toBe(1)
    expect(count('SELECT count(*) AS n FROM imports')).toBe(1)
    expect(lockFiles()).toEqual([])
  })

  it('serves every review-queue order of one fit from an index (no scan, no temp b-tree)', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    const tasks = Array.from({ length: 400 }, (_, i) => makeTask(`t${i}`, { group: `G${i % 7}` }))
    await importTasks(store, tasks)
    for (let f = 0; f < 3; f++) {
      const fit = await store.saveFit(FIT, ANA)
      await saveDecisions(store, fit.value.id, tasks.map((t, i) => decision(t.id, i % 3 === 0 ? 'act' : 'defer', (i * 7919) % 400 / 400)), ANA)
    }
    const table = decisionsTable((await store.latestFit())?.id as string)
    await store.close()

    const select = `SELECT d.task_id, d.gap, d.answer, t.question FROM ${table} d JOIN tasks t ON t.id = d.task_id
      WHERE d.decision = 'defer'`
    const unlabeled = `AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.task_id = d.task_id AND l.label IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id))`
    const queries: [string, string, unknown[]][] = [
      [`${table}_by_gap`, `${select} ORDER BY d.gap, d.task_id LIMIT 50`, []],
      [`${table}_by_gap`, `${select} ${unlabeled} ORDER BY d.gap DESC, d.task_id DESC LIMIT 50`, []],
      [`${table}_by_age`, `${select} ORDER BY d.task_created_at, d.task_id LIMIT 50`, []],
      [`${table}_by_disagreement`, `${select} ORDER BY d.disagreement DESC, d.task_id DESC LIMIT 50`, []],
      [`${table}_by_group`, `${select} ORDER BY d.task_group, d.gap, d.task_id LIMIT 50`, []],
      [`${table}_by_group`, `${select} AND d.task_group = ? ORDER BY d.gap, d.task_id LIMIT 50`, ['G3']],
      // keyset paging: the next page after (gap, task_id)
      [`${table}_by_gap`, `${select} AND (d.gap, d.task_id) > (?, ?) ORDER BY d.gap, d.task_id LIMIT 50`, [0.5, 't9']]
    ]
    const db = rawDb(path)
    try {
      for (const analyzed of [false, true]) {
        if (analyzed) db.exec('ANALYZE')
        for (const [index, sql, params] of queries) {
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail)
          const where = `${sql}\n${plan.join('\n')}`
          expect(plan.some((d) => d.startsWith('SEARCH d USING') && d.includes(`INDEX ${index} (decision=?`)), where).toBe(true)
          expect(plan.filter((d) => d.startsWith('SCAN')), where).toEqual([])
          expect(plan.filter((d) => d.includes('TEMP B-TREE')), where).toEqual([])
          expect(db.prepare(sql).all(...params).length, where).toBeGreaterThan(0)
        }
      }
    } finally {
      db.close()
    }
  })

  it('notices other connections’ commits through the data version', async () => {
    const path = tmp.dbLocation()
    const a = await openSqliteStore(path)
    const b = await openSqliteStore(path)
    try {
      const v0 = await a.dataVersion()
      await a.setSettings({ own: 1 }, ANA)
      expect(await a.dataVersion()).toBe(v0) // its own writes do not count
      await b.setSettings({ other: 1 }, ANA)
      expect(await a.dataVersion()).not.toBe(v0)
      expect(await a.getSettings()).toEqual({ own: 1, other: 1 })
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('reports foreign-key damage in its integrity check', async () => {
    const path = tmp.dbLocation()
    await withLabelAndDecision(path)
    const db = rawDb(path)
    db.pragma('foreign_keys = OFF')
    db.prepare(
      `INSERT INTO labels (id, task_id, label, source, reviewer, at, session_id)
       VALUES ('orphan', 'no-such-task', 'true', 'random', 'x', '2026-01-01T00:00:00.000Z', 's')`
    ).run()
    db.close()
    const store = await openSqliteStore(path)
    const report = await store.integrityCheck()
    await store.close()
    expect(report.ok).toBe(false)
    expect(report.messages.join('\n')).toMatch(/labels .*tasks/)
  })

  // PostgreSQL URLs: postgres-schema.test.ts.
  it('opens SQLite for a path', async () => {
    const store = await openStore(tmp.dbLocation())
    expect((await store.info()).backend).toBe('sqlite')
    await store.close()
    expect((await rejection(openStore(`${tmp.dir()}/missing-dir/arbiter.db`))).code).toBe('not_found')
  })
})
