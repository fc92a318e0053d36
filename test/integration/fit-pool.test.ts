/**
 * The Dawid–Skene methods fit EM over every task (their pool), which the corpus makes only for
 * them (fit/corpus.ts keeps packs, and makes tasks on demand): a ds-em fit and decide store
 * exactly what the engine gives on the whole corpus.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildActOrDefer, fitCouncil } from '../../src/main/engine'
import { loadCorpus } from '../../src/main/service/fit/corpus'
import { readEngineSettings, updateEngineSettings } from '../../src/main/service/engine-settings'
import { fitAndDecide } from '../../src/main/service/fit/run-fit'
import { runImport } from '../../src/main/service/import'
import { cleanCouncil, toJsonl } from '../../src/main/sim'
import { decisionsTable } from '../../src/main/store/fit-decisions'
import { openStore, type Store } from '../../src/main/store'

const ACTOR = { reviewer: 'test', sessionId: 'test', shell: 'cli' as const }
let dir: string
let dbLocation: string
let store: Store

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-fit-pool-'))
  dbLocation = join(dir, 'pool.db')
  const traces = [...cleanCouncil({ tasks: 600, seed: 5 })]
  const file = join(dir, 'council.jsonl')
  writeFileSync(file, traces.map((t) => `${toJsonl(t)}\n`).join(''))
  store = await openStore(dbLocation)
  const imported = await runImport(store, {
    path: file, fileName: file, displayName: 'council.jsonl', kind: 'traces', skipInvalid: false, goldAs: null,
    dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null, target: null
  }, ACTOR)
  expect(imported.status).toBe('imported')
  const at = '2026-11-30T12:00:00.000Z'
  await store.importLabels({
    fileName: 'calibration', sha256: 'a'.repeat(64), kind: 'labels',
    labels: traces.filter((_, i) => i % 3 === 0).map((t) => ({ taskId: t.task, label: t.gold as string, source: 'random' as const, reviewer: 'ana', at, note: null }))
  }, ACTOR)
  await updateEngineSettings(store, { method: 'ds-em', state: 'posterior', autoRefit: false, budget: { kind: 'absolute', beta: 0.25 } }, ACTOR)
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a ds-em fit', () => {
  it('stores exactly the engine\'s decisions with the calibration tasks taken from its pool', async () => {
    const settings = await readEngineSettings(store)
    const fit = await fitAndDecide(store, { settings, redecide: null }, ACTOR)
    expect(fit.method).toBe('ds-em')

    const corpus = await loadCorpus(store, ACTOR)
    const all = corpus.tasks
    const C = all.filter((t) => corpus.labels.get(t.task)?.source === 'random' && t.gold >= 0)
    const fits = fitCouncil({ method: 'ds-em', hyper: null, calibration: C, extraLabeled: [], seed: settings.seed, fitOptions: { pool: all, labels: C[0].candidates } })
    const aod = buildActOrDefer(fits, { state: settings.state, options: { delta: settings.delta, epsAct: settings.epsAct }, bound: settings.bound, spotRate: settings.spotRate })
    const scored = all.filter((t) => !corpus.labels.has(t.task))
    const want = aod.decide(scored, settings.budget).tasks

    const db = new Database(dbLocation, { readonly: true })
    try {
      const rows = db.prepare(`SELECT task_id, decision, spot_check, answer, stop_round, gap FROM ${decisionsTable(fit.id)} ORDER BY task_id`).all() as
        { task_id: string; decision: string; spot_check: number; answer: string; stop_round: number | null; gap: number | null }[]
      expect(rows).toHaveLength(400)
      const got = new Map(rows.map((r) => [r.task_id, r]))
      want.forEach((v, i) => {
        const r = got.get(scored[i].task)
        expect(r).toMatchObject({ decision: v.decision, spot_check: v.spotCheck ? 1 : 0, answer: v.answer, stop_round: v.stopRound })
        if (v.gap !== null && Number.isFinite(v.gap)) expect(r?.gap).toBeCloseTo(v.gap, 12)
      })
      // The certificate judged them (a finite gap each), not the no-calibration fallback.
      expect(want.filter((v) => v.gap !== null && Number.isFinite(v.gap)).length).toBeGreaterThan(300)
    } finally {
      db.close()
    }
  })
})
