/**
 * A re-decide (another budget for a fit) reuses the hyperparameters the fit selected instead of
 * searching again (fit/record.ts `storedSelection`): under the fit's own budget it must store
 * exactly the fit's decisions, and a stored selection that is not valid for the method is searched
 * again rather than trusted.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BudgetSetting } from '../../src/shared/api'
import { createDemoDatabase } from '../../src/main/service/demo'
import { readEngineSettings } from '../../src/main/service/engine-settings'
import { storedSelection } from '../../src/main/service/fit/record'
import { fitAndDecide } from '../../src/main/service/fit/run-fit'
import { decisionsTable } from '../../src/main/store/fit-decisions'
import { openStore, type FitRecord, type Store } from '../../src/main/store'

const ACTOR = { reviewer: 'test', sessionId: 'test', shell: 'cli' as const }
let dir: string
let dbPath: string
let store: Store

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-redo-'))
  dbPath = join(dir, 'demo.db')
  await createDemoDatabase(dbPath)
  store = await openStore(dbPath)
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

function rowsOf(fitId: string): unknown[] {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare(`SELECT * FROM ${decisionsTable(fitId)} ORDER BY task_id`).all()
  } finally {
    db.close()
  }
}

async function currentFit(): Promise<FitRecord> {
  const fit = await store.currentFit()
  if (fit === null) throw new Error('the demo has a fit')
  return fit
}

describe('a re-decide reuses the fit\'s selection', () => {
  it('under the fit\'s own budget it stores exactly the fit\'s decisions and hyperparameters', async () => {
    const fit = await currentFit()
    expect(fit.parentFitId).toBeNull() // a full fit: its hyperparameters came from the search
    const selection = storedSelection(fit)
    expect(selection?.outOfFold).toHaveLength(5)
    const settings = await readEngineSettings(store)
    const redo = await fitAndDecide(store, { settings, redo: { fit, budget: fit.certificate?.budget as BudgetSetting } }, ACTOR)
    expect(redo.hyperparameters).toEqual(fit.hyperparameters)
    expect(redo.certificate?.outOfFoldHyper).toEqual(fit.certificate?.outOfFoldHyper)
    expect(redo.certificate?.resolved).toEqual(fit.certificate?.resolved)
    expect(redo.decisionCount).toBeGreaterThan(500)
    expect(rowsOf(redo.id)).toEqual(rowsOf(fit.id))
  })

  it('a stored selection that is not valid for the method is searched again, with the same result', async () => {
    const fit = await currentFit()
    const broken: FitRecord = { ...fit, certificate: { ...fit.certificate, outOfFoldHyper: [{ b: 7, kappa: 0 }] } }
    expect(storedSelection(broken)).toBeNull()
    expect(storedSelection({ ...fit, certificate: { ...fit.certificate, outOfFoldHyper: null } })).toBeNull()
    expect(storedSelection({ ...fit, hyperparameters: { b: 'high' } as never })).toBeNull()
    const settings = await readEngineSettings(store)
    const budget = { kind: 'absolute' as const, beta: 0.1 }
    const searched = await fitAndDecide(store, { settings, redo: { fit: broken, budget } }, ACTOR)
    const reused = await fitAndDecide(store, { settings, redo: { fit, budget } }, ACTOR)
    expect(searched.hyperparameters).toEqual(reused.hyperparameters)
    expect(rowsOf(searched.id)).toEqual(rowsOf(reused.id))
  })
})
