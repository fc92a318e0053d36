/**
 * PostgreSQL migration 0007 (as SQLite's 0009): decision rows keep their rounds, and a re-decide
 * copies a fit's rows with the verdict recomputed on the server (postgres/fits.ts `redecideRows`).
 * The rule on hand-made rows, as sqlite-decision-rounds.test.ts pins it; the integration test
 * compares a copy with deciding again on a real council, on both backends.
 */
import pg from 'pg'
import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { DecisionPageBuilder, openPostgresStore, POSTGRES_MIGRATIONS, type Store } from '../../../src/main/store'
import { decisionsTable } from '../../../src/main/store/fit-decisions'
import { DECISIONS_TABLE as OLD_SHAPE } from '../../../src/main/store/postgres/migrations/0004-decision-numbers'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'
import { ANA, importTasks, makeTask } from './fixtures'

const cluster = usePostgres()
const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

async function sql<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text, params)).rows as T[]
  } finally {
    await client.end()
  }
}

async function decidedFit(store: Store, rows: { id: string; bound: (number | null)[]; answers: number[]; peak: number | null; reason?: string }[]): Promise<string> {
  const fit = (await store.saveFit(FIT, ANA)).value.id
  const page = new DecisionPageBuilder(rows.length)
  for (const r of rows) {
    page.add({
      taskId: r.id, act: false, spotCheck: false, answer: 'true', reason: r.reason ?? null, stopRound: null, gap: null, disagreement: 0.5,
      candidates: ['true', 'false'], posterior: [0.6, 0.4], bound: r.bound, k: null, why: null, roundAnswers: r.answers, peak: r.peak
    })
  }
  await store.appendDecisionPage(fit, page.finish())
  await store.finishDecisions(fit, ANA)
  return fit
}

describeWith(POSTGRES, 'PostgreSQL decisions that keep their rounds', () => {
  it('copies a fit\'s rows under another threshold: the first crossing, its answer, the gap, the reason', async () => {
    const url = await cluster().createDatabase()
    const store = await openPostgresStore(url)
    try {
      await importTasks(store, ['t1', 't2', 't3', 't4'].map((id) => makeTask(id)))
      const parent = await decidedFit(store, [
        { id: 't1', bound: [0.5, 0.9, 0.95], answers: [1, 0, 0], peak: 0.95 },
        { id: 't2', bound: [0.97, 0.6, null], answers: [1, 1, 0], peak: 0.97 },
        { id: 't3', bound: [null, null, null], answers: [0, 1, 1], peak: null, reason: 'no-usable-k' },
        { id: 't4', bound: [0.1, 0.2, 0.3], answers: [0, 0, 1], peak: 0.3 }
      ])
      expect(await store.canRedecideRows(parent)).toBe(true)
      const fit = (await store.saveFit({ ...FIT, parentFitId: parent }, ANA)).value.id
      const first = (await store.redecideRows(fit, { parentFitId: parent, threshold: 0.85, reason: null, rounds: 3, afterTaskId: null, limit: 3 })).value
      expect(first).toEqual({ copied: 3, last: 't3' })
      expect((await store.redecideRows(fit, { parentFitId: parent, threshold: 0.85, reason: null, rounds: 3, afterTaskId: 't3', limit: 3 })).value).toEqual({ copied: 1, last: 't4' })
      await store.finishDecisions(fit, ANA)
      expect(await sql(url, `SELECT task_id, decision, answer, stop_round, gap, reason FROM ${decisionsTable(fit)} ORDER BY task_id`)).toEqual([
        { task_id: 't1', decision: 'act', answer: 'true', stop_round: 1, gap: 0.85 - 0.95, reason: null },
        { task_id: 't2', decision: 'act', answer: 'false', stop_round: 0, gap: 0.85 - 0.97, reason: null },
        { task_id: 't3', decision: 'defer', answer: 'false', stop_round: null, gap: null, reason: 'no-usable-k' },
        { task_id: 't4', decision: 'defer', answer: 'false', stop_round: null, gap: 0.85 - 0.3, reason: null }
      ])
      const f = await store.getFit(fit)
      expect([f.decisionCount, f.deferredCount, f.spotCount]).toEqual([4, 2, 0])
      expect(await store.integrityCheck()).toMatchObject({ ok: true })
    } finally {
      await store.close()
    }
  })

  it('gives a fit decided before the migration the columns, empty: it cannot be copied', async () => {
    const url = await cluster().createDatabase()
    const v6 = await openPostgresStore(url, { migrations: POSTGRES_MIGRATIONS.slice(0, 6) })
    await importTasks(v6, [makeTask('t1')])
    await v6.close()
    const old = randomUUID()
    await sql(url, `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, decided_at, decision_count, deferred_count, spot_count)
      VALUES ($1, '2026-11-30T09:00:00.000Z', 'per-agent', '{}', '{}', '2026-11-30T09:00:01.000Z', 1, 1, 0)`, [old])
    for (const statement of OLD_SHAPE(decisionsTable(old)).split(';').filter((s) => s.trim() !== '')) await sql(url, statement)
    await sql(url, `INSERT INTO ${decisionsTable(old)} (task_id, decision, spot_check, answer, posterior, gap, task_created_at) SELECT id, 'defer', false, 'true', '\\x00', 0.1, created_at FROM tasks`)
    const store = await openPostgresStore(url)
    try {
      const columns = await sql<{ column_name: string }>(url, `SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`, [decisionsTable(old)])
      expect(columns.map((c) => c.column_name).slice(-3)).toEqual(['peak', 'round_keys', 'round_answers'])
      expect(await store.canRedecideRows(old)).toBe(false)
      const newer = await decidedFit(store, [{ id: 't1', bound: [0.5], answers: [0], peak: 0.5 }])
      expect(await store.canRedecideRows(newer)).toBe(true)
    } finally {
      await store.close()
    }
  })
})
