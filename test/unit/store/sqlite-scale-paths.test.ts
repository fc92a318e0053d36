/**
 * The paths that must not grow with a million tasks. The console's counts and the queue's total
 * come from the counts a fit stores with its decisions (minus its tasks labeled since), not from
 * counting rows: here they must equal what counting the rows says, through labels, undos and a
 * rollback. And the query plans of the label count and the fit's tally pages walk the right index.
 */
import { describe, expect, it } from 'vitest'
import { openSqliteStore, type Store } from '../../../src/main/store'
import { LABELED_BY_DECISION, LABELED_CHANGE_SINCE } from '../../../src/main/store/ops/decided-counts'
import { IMPORT_TALLY_PAGE, TALLY_PAGE } from '../../../src/main/store/ops/tallies'
import { SQLITE } from '../../../src/main/store/sqlite/dialect'
import { buildFilter, orderBy } from '../../../src/main/store/ops/task-filter'
import { HELD_BY_OTHERS } from '../../../src/main/store/reservation-rules'
import { heldMatchingQuery } from '../../../src/main/store/ops/queue'
import { decisionsTable, NO_FIT_DECISIONS } from '../../../src/main/store/fit-decisions'
import { ANA, BO, decision, importTasks, makeTask, NO_FILTER, saveDecisions, sha } from './fixtures'
import { rawDb, useTempDir } from './sqlite-helpers'

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

/** The same figures, counted row by row over the current fit. */
function counted(path: string, fitId: string): { acted: number; deferred: number; spotCheck: number } {
  const db = rawDb(path, true)
  try {
    const n = (where: string) =>
      (db.prepare(
        `SELECT count(*) AS n FROM ${decisionsTable(fitId)} d WHERE ${where} AND NOT EXISTS (SELECT 1 FROM labels l
         WHERE l.task_id = d.task_id AND l.label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id))`
      ).get() as { n: number }).n
    return { acted: n(`decision = 'act'`), deferred: n(`decision = 'defer'`), spotCheck: n('spot_check = 1') }
  } finally {
    db.close()
  }
}

async function expectAgreement(store: Store, path: string, fitId: string): Promise<void> {
  const want = counted(path, fitId)
  expect(await store.counts()).toMatchObject(want)
  const page = (decision: 'act' | 'defer') => store.queuePage({ filter: { ...NO_FILTER, decision }, sort: 'gap', direction: 'asc', offset: 0, limit: 5 })
  expect((await page('defer')).total).toBe(want.deferred)
  expect((await page('act')).total).toBe(want.acted)
}

describe('sqlite: stored decision counts', () => {
  const tmp = useTempDir()

  it('agree with counting the rows through labels, undos and a rollback', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    try {
      const tasks = Array.from({ length: 30 }, (_, i) => makeTask(`t${i}`))
      await importTasks(store, tasks)
      expect(await store.counts()).toMatchObject({ tasks: 30, moves: 120, acted: 0, deferred: 0 })
      const fit = await store.saveFit(FIT, ANA)
      await saveDecisions(store, fit.value.id, tasks.map((t, i) => decision(t.id, i % 3 === 0 ? 'act' : 'defer', i / 30, { spotCheck: i % 5 === 0 })), ANA)
      await expectAgreement(store, path, fit.value.id)

      const labels = []
      for (const i of [0, 1, 5, 10, 11]) {
        labels.push((await store.recordLabel({ taskId: `t${i}`, label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)).value)
      }
      // A second reviewer on the same task: the task is counted out once.
      await store.recordLabel({ taskId: 't1', label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: labels[1].version }, { ...ANA, reviewer: 'bo' })
      await expectAgreement(store, path, fit.value.id)
      await store.undoLabel({ labelId: labels[2].labelId, expectedVersion: labels[2].version }, ANA)
      await expectAgreement(store, path, fit.value.id)

      const second = await store.saveFit(FIT, ANA)
      await saveDecisions(store, second.value.id, tasks.map((t) => decision(t.id, 'defer', 0.5)), ANA)
      await expectAgreement(store, path, second.value.id)
      const back = await store.rollbackFit(fit.value.id, ANA)
      await expectAgreement(store, path, back.value.id)
    } finally {
      await store.close()
    }
  })

  it('keeps the current fit\'s labeled tasks counted through every kind of label write, and stays right when a write skips it', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    try {
      const tasks = Array.from({ length: 40 }, (_, i) => makeTask(`t${i}`))
      await importTasks(store, tasks)
      const version = async (taskId: string) => (await store.getTaskSummary(taskId)).version
      const label = async (taskId: string, value: string, actor = ANA, extra: { adjudicated?: boolean; supersedes?: string } = {}) =>
        (await store.recordLabel({ taskId, label: value, source: 'escalation', reviewer: actor.reviewer, expectedVersion: await version(taskId), ...extra }, actor)).value
      // Labeled before the fit and decided all the same (votes that disagree leave a task undecided by humans).
      await label('t2', 'true')
      await label('t2', 'false', BO)
      const early = await label('t3', 'true')
      const fit = await store.saveFit(FIT, ANA)
      await saveDecisions(store, fit.value.id, tasks.map((t, i) => decision(t.id, i % 3 === 0 ? 'act' : 'defer', i / 40, { spotCheck: i % 4 === 0 })), ANA)
      const kept = () => {
        const db = rawDb(path, true)
        try {
          return {
            rows: db.prepare('SELECT fit_id AS fitId, label_seq AS seq FROM fit_labeled_counts').all(),
            seq: (db.prepare('SELECT max(rowid) AS seq FROM labels').get() as { seq: number }).seq
          }
        } finally {
          db.close()
        }
      }
      const expectKept = (fitId: string) => {
        const k = kept()
        expect(k.rows).toEqual([{ fitId, seq: k.seq }])
      }
      await expectAgreement(store, path, fit.value.id)
      expectKept(fit.value.id)

      const a = await label('t0', 'true')
      await label('t4', 'false', BO)
      await expectAgreement(store, path, fit.value.id)
      expectKept(fit.value.id)
      // Undo, undo of a label given before the fit, a replacement, an adjudication, a second vote.
      await store.undoLabel({ labelId: a.labelId, expectedVersion: a.version }, ANA)
      await store.undoLabel({ labelId: early.labelId, expectedVersion: await version('t3') }, ANA)
      await expectAgreement(store, path, fit.value.id)
      const b = await label('t8', 'true')
      await label('t8', 'false', ANA, { supersedes: b.labelId })
      await label('t2', 'true', BO, { adjudicated: true })
      await label('t8', 'true', BO)
      await expectAgreement(store, path, fit.value.id)
      expectKept(fit.value.id)
      // A label file, in one write.
      const at = '2026-01-01T00:00:00.000Z'
      await store.importLabels({ fileName: 'l.csv', sha256: sha('l.csv'), kind: 'labels', labels: ['t12', 't13', 't0'].map((taskId) => ({ taskId, label: 'true', source: 'random' as const, reviewer: 'cy', at, note: null })) }, ANA)
      await expectAgreement(store, path, fit.value.id)
      expectKept(fit.value.id)

      // A label written past the store (an older tool, a hand edit): the read counts what changed since.
      const db = rawDb(path)
      try {
        db.prepare(`INSERT INTO labels (id, task_id, label, source, reviewer, at, note, supersedes, adjudicated, session_id)
          VALUES ('raw-1', 't16', 'true', 'escalation', 'dee', ?, NULL, NULL, 0, 'raw')`).run(at)
      } finally {
        db.close()
      }
      expect(kept().rows).toEqual([{ fitId: fit.value.id, seq: kept().seq - 1 }])
      await expectAgreement(store, path, fit.value.id)
      await label('t20', 'true')
      await expectAgreement(store, path, fit.value.id)
      expectKept(fit.value.id)

      // A kept row that lies (a hand edit): a count that would go below zero is counted afresh, and the label is written.
      const edit = rawDb(path)
      try {
        edit.prepare('UPDATE fit_labeled_counts SET act = 0, act_spot = 0, defer = 0, defer_spot = 0').run()
      } finally {
        edit.close()
      }
      const t20 = (await store.getTaskSummary('t20')).liveLabels[0]
      await store.undoLabel({ labelId: t20.id, expectedVersion: await version('t20') }, ANA)
      await expectAgreement(store, path, fit.value.id)
      expectKept(fit.value.id)

      // A new fit takes the kept row over; its labeled tasks are the ones labeled by now.
      const second = await store.saveFit(FIT, ANA)
      await saveDecisions(store, second.value.id, tasks.map((t) => decision(t.id, 'defer', 0.5, { spotCheck: t.id === 't8' })), ANA)
      expectKept(second.value.id)
      await expectAgreement(store, path, second.value.id)
      await label('t21', 'true')
      await expectAgreement(store, path, second.value.id)
      expectKept(second.value.id)
      // Back to the first fit: counted afresh until a label write keeps it again.
      const back = await store.rollbackFit(fit.value.id, ANA)
      await expectAgreement(store, path, back.value.id)
      await label('t22', 'true')
      await expectAgreement(store, path, back.value.id)
      expectKept(back.value.id)
    } finally {
      await store.close()
    }
  })

  it('reads the labels, not the fit\'s decisions: labels are the outer loop, each decision found by its key', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    await store.close()
    const db = rawDb(path, true)
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LABELED_BY_DECISION(NO_FIT_DECISIONS)}`).all() as { detail: string }[]).map((r) => r.detail)
      expect(plan.find((d) => /^SCAN l\b/.test(d)), plan.join('\n')).toBeDefined()
      expect(plan.filter((d) => /^SCAN d\b/.test(d)), plan.join('\n')).toEqual([])
      // One probe of the fit's decisions per labeled task, by their key, and only one.
      const probes = plan.filter((d) => d.startsWith('SEARCH d'))
      expect(probes, plan.join('\n')).toHaveLength(1)
      expect(probes[0], plan.join('\n')).toMatch(/^SEARCH d USING PRIMARY KEY \(task_id=\?\)/)
    } finally {
      db.close()
    }
  })
})

describe('sqlite: the labeled tasks since the kept counts', () => {
  const tmp = useTempDir()

  it('are read from a range of the labels\' rowids, never a walk of every label', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    await store.close()
    const db = rawDb(path, true)
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LABELED_CHANGE_SINCE(NO_FIT_DECISIONS, SQLITE)}`).all(0, 0, 0) as { detail: string }[]).map((r) => r.detail)
      expect(plan, plan.join('\n')).toContain('SEARCH labels USING INTEGER PRIMARY KEY (rowid>?)')
      expect(plan.filter((d) => /^SCAN (labels|l|s|d)\b/.test(d) || /^SCAN c USING/.test(d)), plan.join('\n')).toEqual([])
    } finally {
      db.close()
    }
  })
})

describe('sqlite: the fit reads its tallies by a walk of the task ids', () => {
  const tmp = useTempDir()

  it('pages tallies from the task-id index, never sorting an import\'s tasks', async () => {
    const path = tmp.dbLocation()
    await (await openSqliteStore(path)).close()
    const db = rawDb(path, true)
    try {
      // The fit's pages, and the pages an import's tally packs are made from (one import's tasks).
      for (const [sql, params] of [[TALLY_PAGE(SQLITE), ['', '', 10]], [IMPORT_TALLY_PAGE(SQLITE), ['', '', 'import-1', 10]]] as const) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail)
        expect(plan[0], plan.join('\n')).toMatch(/^SEARCH t USING INDEX sqlite_autoindex_tasks_1 \(id>\?\)/)
        expect(plan.filter((d) => d.includes('TEMP B-TREE')), plan.join('\n')).toEqual([])
      }
    } finally {
      db.close()
    }
  })
})

describe('sqlite: a reviewer\'s queue skips the tasks others hold without walking more', () => {
  // Only when someone else holds a task: otherwise the page has no per-row check at all.
  const tmp = useTempDir()

  it('counts the held tasks from the live reservations, and pages the queue index with one key lookup per row', async () => {
    const path = tmp.dbLocation()
    await (await openSqliteStore(path)).close()
    const db = rawDb(path, true)
    try {
      const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail)
      expect(plan(HELD_BY_OTHERS, 'now', 'me')[0]).toMatch(/^SEARCH rx USING INDEX reservations_by_expiry \(expires_at>\?\)/)
      // The held ids lead: each one probe of the decisions by key, never a walk of the deferred view.
      const q = heldMatchingQuery(SQLITE, { ...NO_FILTER, decision: 'defer' }, null, 'now', ['a', 'b'], null, null)
      const held = plan(q.sql, ...q.params)
      expect(held.filter((d) => /^SCAN (?!json_each)/.test(d)), held.join('\n')).toEqual([])
      expect(held[0], held.join('\n')).toMatch(/^SCAN json_each/)
      expect(held.some((d) => /^SEARCH d USING .*\(task_id=\?\)/.test(d)), held.join('\n')).toBe(true)
      const b = buildFilter(SQLITE, { ...NO_FILTER, decision: 'defer' }, null, 'now', false, 'me')
      const page = plan(`SELECT d.task_id FROM ${NO_FIT_DECISIONS} d WHERE ${b.where.join(' AND ')} ORDER BY ${orderBy(SQLITE, 'gap', 'asc', 'decided')} LIMIT 50`, ...b.params)
      expect(page[0], page.join('\n')).toMatch(/^SEARCH d USING COVERING INDEX decisions_none_by_gap \(decision=\?\)/)
      expect(page, page.join('\n')).toContain('SEARCH rx USING INDEX sqlite_autoindex_reservations_1 (task_id=?)')
      expect(page.filter((d) => d.includes('TEMP B-TREE') || /^SCAN/.test(d)), page.join('\n')).toEqual([])
    } finally {
      db.close()
    }
  })
})

describe('sqlite: the what-if of a fit with its figures reads them, not the fit\'s rows', () => {
  const tmp = useTempDir()

  it('answers the same with every unlabeled row\'s bounds gone, and reads the labeled tasks\' rows only', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    try {
      const tasks = Array.from({ length: 40 }, (_, i) => makeTask(`t${i}`))
      await importTasks(store, tasks)
      const fit = await store.saveFit(FIT, ANA)
      const rows = tasks.map((t, i) => {
        const bound = [0.5 + (i % 7) / 20, 0.6 + (i % 5) / 20, 0.7 + (i % 4) / 20]
        const peak = Math.max(...bound)
        return decision(t.id, peak >= 0.85 ? 'act' : 'defer', 0.85 - peak, { bound, why: { round: i % 3, k: 128, qhat: peak + 0.01, bias: 0.01, conc: 0.01 } })
      })
      await saveDecisions(store, fit.value.id, rows, ANA)
      for (const i of [2, 9, 16]) await store.recordLabel({ taskId: `t${i}`, label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const queries = [0.7, 0.8, 0.85, 0.9].flatMap((threshold) => [{ threshold, gapAtMost: null }, { threshold, gapAtMost: 0.85 - threshold + 1e-9 }])
      const scanned = []
      for (const q of queries) scanned.push(await store.budgetWhatIf(q))
      expect(scanned.map((r) => r.acted)).not.toEqual(scanned.map(() => 0))
      await store.saveWhatIfFigures(fit.value.id, (await store.buildWhatIfFigures(fit.value.id))!)
      const db = rawDb(path)
      try {
        // Past the table's immutability triggers, by hand: only a what-if that reads no unlabeled row still sees the bounds.
        const table = decisionsTable(fit.value.id)
        for (const t of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`).all(table) as { name: string }[]) db.exec(`DROP TRIGGER "${t.name}"`)
        db.prepare(`UPDATE ${table} SET bound = NULL WHERE task_id NOT IN ('t2', 't9', 't16')`).run()
      } finally {
        db.close()
      }
      for (const [i, q] of queries.entries()) {
        const got = await store.budgetWhatIf(q)
        expect({ ...got, expectedWrong: 0 }).toEqual({ ...scanned[i], expectedWrong: 0 })
        expect(got.expectedWrong).toBeCloseTo(scanned[i].expectedWrong, 12)
      }
    } finally {
      await store.close()
    }
  })
})
