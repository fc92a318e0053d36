/**
 * The demo database with its decided fit, opened once for a test file (its `beforeAll` and
 * `afterAll`), and a fit's stored decision rows as they are in the file: what the tests of the
 * decide's paths (a writer thread, a refit that gives way) compare with the plain path.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { createDemoDatabase } from '../../src/main/service/demo'
import { decisionsTable } from '../../src/main/store/fit-decisions'
import { openStore, type FitRecord, type Store } from '../../src/main/store'

export interface DemoFit {
  dbLocation: string
  store: Store
  /** The demo's own decided fit, as it was opened. */
  fit: FitRecord
  /** Every stored row of a fit's decisions, in task-id order. */
  rowsOf(fitId: string): unknown[]
}

/** Made in `beforeAll` under a temporary folder named after `name`; closed and removed in `afterAll`. */
export function useDemoFit(name: string): DemoFit {
  let dir = ''
  const demo = {
    dbLocation: '',
    store: null as unknown as Store,
    fit: null as unknown as FitRecord,
    rowsOf(fitId: string): unknown[] {
      const db = new Database(demo.dbLocation, { readonly: true })
      try {
        return db.prepare(`SELECT * FROM ${decisionsTable(fitId)} ORDER BY task_id`).all()
      } finally {
        db.close()
      }
    }
  }
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `arbiter-${name}-`))
    demo.dbLocation = join(dir, 'demo.db')
    await createDemoDatabase(demo.dbLocation)
    demo.store = await openStore(demo.dbLocation)
    const fit = await demo.store.currentFit()
    if (fit === null) throw new Error('the demo has a fit')
    demo.fit = fit
  })
  afterAll(async () => {
    await demo.store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return demo
}
