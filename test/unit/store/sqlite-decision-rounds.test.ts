/**
 * SQLite migration 9: a decision row keeps its rounds (peak, round keys, answers per round), and a
 * re-decide copies a fit's rows with the verdict recomputed under another threshold
 * (sqlite/fits.ts). The service-level test (test/integration/redecide-copy.test.ts) shows the
 * copy equals deciding again on a real council; this one pins the rule on rows made by hand, the
 * keys' order, and what tables from before the migration do.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DecisionPageBuilder, openSqliteStore, SQLITE_MIGRATIONS, type Store } from '../../../src/main/store'
import { decisionsTable } from '../../../src/main/store/fit-decisions'
import { numberKey, roundKeysOf } from '../../../src/main/store/round-keys'
import { DECISIONS_TABLE as OLD_SHAPE } from '../../../src/main/store/sqlite/migrations/0005-decision-numbers'
import { ANA, importTasks, makeTask } from './fixtures'
import { rawDb, useTempDir } from './sqlite-helpers'

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }
const C = ['true', 'false']

describe('round keys', () => {
  it('order as the numbers do, byte for byte (−0 as +0, a missing bound below every number)', () => {
    let seed = 7
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const xs = [0, -0, 1, -1, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 0.9, 0.9 + 2 ** -53, 1 - 2 ** -53]
    for (let i = 0; i < 2000; i++) xs.push((rand() - 0.5) * 10 ** Math.floor(rand() * 12 - 6))
    const keys = xs.map((x) => numberKey(x))
    for (let i = 0; i < xs.length; i++) {
      for (const j of [0, 1, 2, 9, 10, 11, 12, (i * 7) % xs.length, (i * 13 + 5) % xs.length]) {
        expect(Math.sign(Buffer.compare(keys[i], keys[j]))).toBe(xs[i] === xs[j] ? 0 : xs[i] < xs[j] ? -1 : 1)
      }
    }
    expect(Buffer.compare(numberKey(NaN), numberKey(-Infinity))).toBe(-1)
    expect(roundKeysOf(Float64Array.of(0.25, NaN, -2), 0, 3)).toEqual(Buffer.concat([numberKey(0.25), numberKey(NaN), numberKey(-2)]))
  })
})

type Row = { id: string; bound: (number | null)[] | null; answers: number[] | null; peak: number | null; reason?: string | null }

/** A decided fit of hand-made rows (the verdict columns as a parent's; only the rounds matter to a copy). */
async function decidedFit(store: Store, rows: Row[]): Promise<string> {
  const fit = (await store.saveFit(FIT, ANA)).value.id
  const page = new DecisionPageBuilder(rows.length)
  for (const r of rows) {
    page.add({
      taskId: r.id, act: false, spotCheck: r.id === 't2', answer: 'true', reason: r.reason ?? null, stopRound: null, gap: null, disagreement: 0.5,
      candidates: C, posterior: [0.6, 0.4], bound: r.bound, k: r.bound === null ? null : r.bound.map(() => 8), why: null, roundAnswers: r.answers, peak: r.peak
    })
  }
  await store.appendDecisionPage(fit, page.finish())
  await store.finishDecisions(fit, ANA)
  return fit
}

function rowsOf(path: string, fitId: string): Record<string, unknown>[] {
  const db = rawDb(path, true)
  try {
    return db.prepare(`SELECT task_id, decision, answer, stop_round, gap, reason, spot_check FROM ${decisionsTable(fitId)} ORDER BY task_id`).all() as Record<string, unknown>[]
  } finally {
    db.close()
  }
}

describe('a copy of a fit\'s rows under another threshold', () => {
  const tmp = useTempDir()
  const ROWS: Row[] = [
    { id: 't1', bound: [0.5, 0.9, 0.95], answers: [1, 0, 0], peak: 0.95 },
    { id: 't2', bound: [0.97, 0.6, null], answers: [1, 1, 0], peak: 0.97 },
    { id: 't3', bound: [null, null, null], answers: [0, 1, 1], peak: null, reason: 'no-usable-k' },
    { id: 't4', bound: [0.1, 0.2, 0.3], answers: [0, 0, 1], peak: 0.3 }
  ]

  async function setUp(): Promise<{ path: string; store: Store; parent: string }> {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    await importTasks(store, ROWS.map((r) => makeTask(r.id)))
    return { path, store, parent: await decidedFit(store, ROWS) }
  }

  async function copy(store: Store, parent: string, threshold: number, reason: string | null = null, limit = 10): Promise<string> {
    const fit = (await store.saveFit({ ...FIT, parentFitId: parent }, ANA)).value.id
    for (let after: string | null = null; ; ) {
      const { copied, last }: { copied: number; last: string | null } = (await store.redecideRows(fit, { parentFitId: parent, threshold, reason, rounds: 3, afterTaskId: after, limit })).value
      after = last
      if (copied < limit) break
    }
    await store.finishDecisions(fit, ANA)
    return fit
  }

  it('acts at the first round whose bound reaches it, with that round\'s answer; defers with the last round\'s', async () => {
    const { path, store, parent } = await setUp()
    try {
      expect(await store.canRedecideRows(parent)).toBe(true)
      const fit = await copy(store, parent, 0.85, null, 3)
      expect(rowsOf(path, fit)).toEqual([
        { task_id: 't1', decision: 'act', answer: 'true', stop_round: 1, gap: 0.85 - 0.95, reason: null, spot_check: 0 },
        { task_id: 't2', decision: 'act', answer: 'false', stop_round: 0, gap: 0.85 - 0.97, reason: null, spot_check: 1 },
        { task_id: 't3', decision: 'defer', answer: 'false', stop_round: null, gap: null, reason: 'no-usable-k', spot_check: 0 },
        { task_id: 't4', decision: 'defer', answer: 'false', stop_round: null, gap: 0.85 - 0.3, reason: null, spot_check: 0 }
      ])
      // Exactly at the threshold acts (L_t ≥ 1 − α); a hair above it does not.
      expect(rowsOf(path, await copy(store, parent, 0.97))[1]).toMatchObject({ decision: 'act', stop_round: 0 })
      expect(rowsOf(path, await copy(store, parent, 0.97 + 2 ** -52))[1]).toMatchObject({ decision: 'defer', stop_round: null, answer: 'true' })
      const f = await store.getFit(fit)
      expect([f.decisionCount, f.deferredCount, f.spotCount]).toEqual([4, 2, 1])
      expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
    } finally {
      await store.close()
    }
  })

  it('defers every task with the budget\'s reason, the gaps still reported', async () => {
    const { path, store, parent } = await setUp()
    try {
      const rows = rowsOf(path, await copy(store, parent, 1.01, 'alpha-nonpositive'))
      expect(rows.map((r) => [r.decision, r.reason, r.stop_round])).toEqual(ROWS.map(() => ['defer', 'alpha-nonpositive', null]))
      expect(rows.map((r) => r.gap)).toEqual([1.01 - 0.95, 1.01 - 0.97, null, 1.01 - 0.3])
    } finally {
      await store.close()
    }
  })

  it('refuses a decided fit as the target, and a threshold that is not a number', async () => {
    const { store, parent } = await setUp()
    try {
      await expect(store.redecideRows(parent, { parentFitId: parent, threshold: 0.9, reason: null, rounds: 3, afterTaskId: null, limit: 10 })).rejects.toMatchObject({ code: 'conflict' })
      const fit = (await store.saveFit(FIT, ANA)).value.id
      await expect(store.redecideRows(fit, { parentFitId: parent, threshold: NaN, reason: null, rounds: 3, afterTaskId: null, limit: 10 })).rejects.toMatchObject({ code: 'bad_input' })
    } finally {
      await store.close()
    }
  })

  it('a fit decided before migration 9 cannot be copied, and its rollback copies the columns it has', async () => {
    const path = tmp.dbLocation()
    const v8 = await openSqliteStore(path, { migrations: SQLITE_MIGRATIONS.slice(0, 8) })
    await importTasks(v8, [makeTask('t1')])
    await v8.close()
    const old = randomUUID()
    const db = rawDb(path)
    try {
      db.prepare(`INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, decided_at, decision_count, deferred_count, spot_count)
        VALUES (?, '2026-11-30T09:00:00.000Z', 'per-agent', '{}', '{}', '2026-11-30T09:00:01.000Z', 1, 1, 0)`).run(old)
      db.exec(OLD_SHAPE(decisionsTable(old)))
      db.prepare(`INSERT INTO ${decisionsTable(old)} (task_id, decision, spot_check, answer, posterior, gap, task_created_at) SELECT id, 'defer', 0, 'true', x'00', 0.1, created_at FROM tasks`).run()
    } finally {
      db.close()
    }
    const store = await openSqliteStore(path)
    try {
      expect(await store.canRedecideRows(old)).toBe(false)
      const newer = await decidedFit(store, [{ id: 't1', bound: [0.5], answers: [0], peak: 0.5 }])
      expect(await store.canRedecideRows(newer)).toBe(true)
      const back = (await store.rollbackFit(old, ANA)).value
      expect(back.decisionCount).toBe(1)
      expect((await store.queuePage({ filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 5 })).rows.map((r) => [r.taskId, r.gap])).toEqual([['t1', 0.1]])
      // Its copy has the new columns, empty: no rounds to copy either.
      expect(await store.canRedecideRows(back.id)).toBe(false)
      expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
    } finally {
      await store.close()
    }
  })
})
