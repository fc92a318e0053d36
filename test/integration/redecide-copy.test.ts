/**
 * A re-decide under another budget copies its parent fit's rows with their verdicts recomputed
 * in SQL (service/fit/redecide-copy.ts; store/sqlite/fits.ts, store/postgres/fits.ts) when
 * nothing the fit read has changed. On the demo database, on SQLite and on PostgreSQL, for budgets
 * that act on every task, some and none, the copy stores exactly what deciding every task again
 * stores — every column of every row, and the fit record but its timing — and every change that
 * would make them differ sends the re-decide down the full path.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BudgetSetting } from '../../src/shared/api'
import { createDemoDatabase } from '../../src/main/service/demo'
import { readEngineSettings } from '../../src/main/service/engine-settings'
import { fitAndDecide, type FitProgress } from '../../src/main/service/fit/run-fit'
import { decisionsTable } from '../../src/main/store/fit-decisions'
import { openStore, type FitRecord, type Store } from '../../src/main/store'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'

const ACTOR = { reviewer: 'test', sessionId: 'test', shell: 'cli' as const }
const cluster = usePostgres()

/** Where a demo database is made, and a fit's stored rows read raw (every column, in task-id order). */
type Backend = { create: () => Promise<string>; rows: (dbLocation: string, fitId: string) => Promise<Record<string, unknown>[]>; done: () => void }

function sqliteBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-redecide-copy-'))
  return {
    create: async () => join(dir, 'demo.db'),
    rows: async (dbLocation, fitId) => {
      const db = new Database(dbLocation, { readonly: true })
      try {
        return db.prepare(`SELECT * FROM ${decisionsTable(fitId)} ORDER BY task_id`).all() as Record<string, unknown>[]
      } finally {
        db.close()
      }
    },
    done: () => rmSync(dir, { recursive: true, force: true })
  }
}

const postgresBackend = (): Backend => ({
  create: () => cluster().createDatabase(),
  rows: async (dbLocation, fitId) => {
    const client = new pg.Client({ connectionString: dbLocation })
    await client.connect()
    try {
      return (await client.query(`SELECT * FROM ${decisionsTable(fitId)} ORDER BY task_id`)).rows as Record<string, unknown>[]
    } finally {
      await client.end()
    }
  },
  done: () => {}
})

function defineCopySuite(makeBackend: () => Backend): void {
  let backend: Backend
  let dbLocation: string
  let store: Store
  let demoFit: FitRecord

  beforeAll(async () => {
    backend = makeBackend()
    dbLocation = await backend.create()
    await createDemoDatabase(dbLocation)
    store = await openStore(dbLocation)
    const fit = await store.currentFit()
    if (fit === null) throw new Error('the demo has a fit')
    demoFit = fit
  }, 120_000)
  afterAll(async () => {
    await store?.close()
    backend?.done()
  })

  const rowsOf = (fitId: string) => backend.rows(dbLocation, fitId)

  /** The fit as both paths must agree on it: all but its id, times and the fit's own timing. */
  function comparable(f: FitRecord): unknown {
    const { id: _id, createdAt: _c, decidedAt: _d, ...rest } = f
    const { fitMs: _ms, ...metrics } = f.metrics ?? {}
    return { ...rest, metrics }
  }

  /** A re-decide of `fit`, and the phases it went through (the full path loads the corpus; a copy does not). */
  async function redecide(fit: FitRecord, budget: BudgetSetting, copyRows = true, bound?: 'hoeffding' | 'binomial'): Promise<{ fit: FitRecord; phases: Set<string> }> {
    const phases = new Set<string>()
    const progress: FitProgress = (p) => phases.add(p.phase)
    const settings = await readEngineSettings(store)
    const redecide = bound === undefined ? { fit, budget } : { fit, budget, bound }
    return { fit: await fitAndDecide(store, { settings, redecide, copyRows }, ACTOR, progress), phases }
  }

  describe('a re-decide that copies its parent\'s rows', () => {
    const budgets: [string, BudgetSetting][] = [
      ['β = 0.10 (acts on none here)', { kind: 'absolute', beta: 0.1 }],
      ['β = 0.21 (acts on some)', { kind: 'absolute', beta: 0.21 }],
      ['β = 0.30 (acts on every task here, at several rounds)', { kind: 'absolute', beta: 0.3 }],
      ['β = 0.05 (α ≤ 0: defers every task)', { kind: 'absolute', beta: 0.05 }],
      ['λ = 1.5 (relative)', { kind: 'relative', lambda: 1.5 }]
    ]
    for (const [name, budget] of budgets) {
      it(`stores exactly what deciding every task again stores, under ${name}`, async () => {
        const copied = await redecide(demoFit, budget)
        const full = await redecide(demoFit, budget, false)
        expect(copied.phases.has('loading')).toBe(false)
        expect(full.phases.has('loading')).toBe(true)
        expect(copied.fit.parentFitId).toBe(demoFit.id)
        expect(comparable(copied.fit)).toEqual(comparable(full.fit))
        const rows = await rowsOf(copied.fit.id)
        expect(rows.length).toBeGreaterThan(500)
        expect(rows).toEqual(await rowsOf(full.fit.id))
        expect(copied.fit.decisionCount - (copied.fit.deferredCount ?? 0)).toBe(rows.filter((r) => r.decision === 'act').length)
      })
    }

    it('acts on a different number of tasks under each budget, and a copy of a copy equals the full path', async () => {
      const loose = await redecide(demoFit, { kind: 'absolute', beta: 0.3 })
      const tight = await redecide(loose.fit, { kind: 'absolute', beta: 0.21 })
      const full = await redecide(demoFit, { kind: 'absolute', beta: 0.21 }, false)
      expect(tight.phases.has('loading')).toBe(false)
      const acted = (f: FitRecord) => f.decisionCount - (f.deferredCount ?? 0)
      expect(acted(loose.fit)).toBeGreaterThan(acted(tight.fit))
      expect(acted(tight.fit)).toBeGreaterThan(0)
      // The crossing is found at more than one round (the first with L_t ≥ 1 − α, not the last).
      expect(new Set((await rowsOf(loose.fit.id)).map((r) => r.stop_round)).size).toBeGreaterThan(1)
      expect(await rowsOf(tight.fit.id)).toEqual(await rowsOf(full.fit.id))
      const { parentFitId: _p, ...a } = comparable(tight.fit) as Record<string, unknown>
      const { parentFitId: _q, ...b } = comparable(full.fit) as Record<string, unknown>
      expect(a).toEqual(b)
    })

    it('decides every task again under λ = auto, under another bound, and from a fit without stored inputs', async () => {
      expect((await redecide(demoFit, { kind: 'auto' })).phases.has('loading')).toBe(true)
      const other = demoFit.bound === 'binomial' ? 'hoeffding' : 'binomial'
      expect((await redecide(demoFit, { kind: 'absolute', beta: 0.1 }, true, other)).phases.has('loading')).toBe(true)
      const { inputs: _i, ...metrics } = demoFit.metrics ?? {}
      expect((await redecide({ ...demoFit, metrics }, { kind: 'absolute', beta: 0.1 })).phases.has('loading')).toBe(true)
    })

    it('decides every task again once a label was given since the fit, leaving the labeled task out', async () => {
      const before = await redecide(demoFit, { kind: 'absolute', beta: 0.1 })
      expect(before.phases.has('loading')).toBe(false)
      const [row] = await rowsOf(demoFit.id)
      const taskId = row.task_id as string
      const answer = row.answer as string
      const { version } = await store.getTaskSummary(taskId)
      await store.recordLabel({ taskId, label: answer, source: 'escalation', reviewer: ACTOR.reviewer, note: null, expectedVersion: version }, ACTOR)
      const after = await redecide(demoFit, { kind: 'absolute', beta: 0.1 })
      expect(after.phases.has('loading')).toBe(true)
      const rows = await rowsOf(after.fit.id)
      expect(rows.some((r) => r.task_id === taskId)).toBe(false)
      expect(rows).toHaveLength((await rowsOf(before.fit.id)).length - 1)
    })
  })
}

describe('on SQLite', () => defineCopySuite(sqliteBackend))
describeWith(POSTGRES, 'on PostgreSQL', () => defineCopySuite(postgresBackend))
