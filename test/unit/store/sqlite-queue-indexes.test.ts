/**
 * SQLite's indexes for the queue and exports: the queue's filtered orders stay index walks
 * (checked on the SQL the store builds), exports walk the task-id index, and migration 0002 brings
 * an existing database's questions into the search index and leaves its tallies to the backfill.
 */
import { describe, expect, it } from 'vitest'
import { openSqliteStore, SQLITE_MIGRATIONS, type QueueSort, type TaskFilter } from '../../../src/main/store'
import { buildFilter, orderBy, rowColumns } from '../../../src/main/store/ops/task-filter'
import { SQLITE } from '../../../src/main/store/sqlite/dialect'
import { decisionsTable } from '../../../src/main/store/fit-decisions'
import { ANA, decision, importTasks, makeTask, NO_FILTER, saveDecisions, withTallies } from './fixtures'
import { rawDb, useTempDir, writeLegacyTasks } from './sqlite-helpers'

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

describe('sqlite: the queue’s and exports’ index walks, and search and tallies after migration 0002', () => {
  const tmp = useTempDir()

  it('serves every filtered queue order of a fit from a decisions index; exports walk task ids', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    const tasks = Array.from({ length: 300 }, (_, i) => withTallies(makeTask(`t${String(i).padStart(3, '0')}`, { group: `G${i % 5}` })))
    await importTasks(store, tasks)
    for (let f = 0; f < 2; f++) {
      const fit = await store.saveFit(FIT, ANA)
      await saveDecisions(store, fit.value.id, tasks.map((t, i) => decision(t.id, i % 4 === 0 ? 'act' : 'defer', ((i * 7919) % 300) / 300, { disagreement: (i % 7) / 7 })), ANA)
    }
    const fitId = (await store.currentFit())?.id as string
    await store.close()
    const now = new Date().toISOString()
    const table = decisionsTable(fitId)
    const cases: [Partial<TaskFilter>, QueueSort, string][] = [
      [{}, 'gap', `${table}_by_gap`],
      [{}, 'age', `${table}_by_age`],
      [{}, 'disagreement', `${table}_by_disagreement`],
      [{}, 'group', `${table}_by_group`],
      [{ group: 'G3' }, 'gap', `${table}_by_group`],
      [{ seat: 'A2' }, 'gap', `${table}_by_gap`],
      [{ candidate: 'true', spotCheck: false }, 'age', `${table}_by_age`]
    ]
    const db = rawDb(path)
    try {
      for (const analyzed of [false, true]) {
        if (analyzed) db.exec('ANALYZE')
        for (const [f, sort, index] of cases) {
          for (const decisionKind of ['defer', 'act'] as const) {
            const b = buildFilter(SQLITE, { ...NO_FILTER, decision: decisionKind, ...f }, fitId, now)
            for (const direction of ['asc', 'desc'] as const) {
              const sql = `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE ${b.where.join(' AND ')} ORDER BY ${orderBy(SQLITE, sort, direction, b.mode)} LIMIT 50`
              const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...b.fromParams, ...b.params) as { detail: string }[]).map((r) => r.detail)
              const where = `${JSON.stringify(f)} ${sort} ${direction}\n${plan.join('\n')}`
              expect(plan.some((d) => d.startsWith('SEARCH d USING') && d.includes(`INDEX ${index} (decision=?`)), where).toBe(true)
              expect(plan.filter((d) => /^SCAN (d|t)\b/.test(d)), where).toEqual([])
              expect(plan.filter((d) => d.includes('TEMP B-TREE')), where).toEqual([])
              expect(db.prepare(sql).all(...b.fromParams, ...b.params).length, where).toBeGreaterThan(0)
            }
          }
        }
        // A search drives from the full-text index (few rows), then sorts them: no table scan.
        for (const search of ['claim t01', 'claim']) {
          const b = buildFilter(SQLITE, { ...NO_FILTER, decision: 'defer', search }, fitId, now)
          const sql = `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE ${b.where.join(' AND ')} ORDER BY ${orderBy(SQLITE, 'gap', 'asc', b.mode)} LIMIT 50`
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...b.fromParams, ...b.params) as { detail: string }[]).map((r) => r.detail)
          expect(plan.some((d) => d.includes('task_search VIRTUAL TABLE')), plan.join('\n')).toBe(true)
          expect(plan.filter((d) => /^SCAN (d|t)\b/.test(d)), plan.join('\n')).toEqual([])
        }
        const b = buildFilter(SQLITE, { ...NO_FILTER, group: 'G1' }, fitId, now, true)
        const sql = `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE t.id > ? AND ${b.where.join(' AND ')} ORDER BY t.id LIMIT 50`
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...b.fromParams, 't100', ...b.params) as { detail: string }[]).map((r) => r.detail)
        expect(plan[0], plan.join('\n')).toMatch(/^SEARCH t USING INDEX sqlite_autoindex_tasks_1 \(id>\?\)/)
      }
    } finally {
      db.close()
    }
  })

  it('migrates a version-1 database: its questions become searchable, its tallies are backfilled later', async () => {
    const path = tmp.dbLocation()
    const v1 = await openSqliteStore(path, { migrations: [SQLITE_MIGRATIONS[0]] })
    await v1.close()
    writeLegacyTasks(path, [makeTask('old1'), makeTask('old2')])
    const store = await openSqliteStore(path)
    try {
      expect((await store.info()).schemaVersion).toBe(SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1].version)
      expect((await store.filteredTasks({ ...NO_FILTER, search: 'old2' }, null, 10)).map((r) => r.taskId)).toEqual(['old2'])
      expect((await store.filteredTasks({ ...NO_FILTER, search: 'claim' }, null, 10)).map((r) => r.taskId)).toEqual(['old1', 'old2'])
      const traces = await store.tasksWithoutTallies(10)
      expect(traces.map((t) => t.id)).toEqual(['old1', 'old2'])
      // Migration 0003 packed each task's move rows into its row: the same moves, in file order.
      expect(traces[1].moves).toEqual(makeTask('old2').moves)
      expect(await store.counts()).toMatchObject({ tasks: 2, moves: 8 })
      expect(await store.tallyPage(null, 10)).toEqual([])
    } finally {
      await store.close()
    }
    const db = rawDb(path)
    try {
      expect(() => db.prepare(`UPDATE task_tallies SET k = 3`).run()).not.toThrow() // no rows yet
      db.prepare(`INSERT INTO task_tallies (task_id, k, seats, rounds, counts, vote0, social_p1) VALUES ('old1', 2, '[]', '[]', x'', x'', 0.5)`).run()
      expect(() => db.prepare(`UPDATE task_tallies SET k = 3`).run()).toThrow(/immutable/)
      expect(() => db.prepare(`DELETE FROM task_tallies`).run()).toThrow(/keeps its tallies/)
    } finally {
      db.close()
    }
  })
})
