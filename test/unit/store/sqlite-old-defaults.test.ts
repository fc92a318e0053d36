import { describe, expect, it } from 'vitest'
import { openSqliteStore, SQLITE_MIGRATIONS } from '../../../src/main/store'
import { decisionsTable } from '../../../src/main/store/fit-decisions'
import { ANA, importTasks, makeTask, saveDecisions } from './fixtures'
import { rawDb, useTempDir } from './sqlite-helpers'
import { oldDefaultsSuite } from './suite-old-defaults'

const tmp = useTempDir()
let n = 0

oldDefaultsSuite('sqlite migration 0006', () => ({
  fresh: () => Promise.resolve(tmp.dbLocation(`db-${n++}.db`)),
  open: (path, migrations) => openSqliteStore(path, migrations === undefined ? {} : { migrations }),
  migrations: SQLITE_MIGRATIONS,
  before: 5,
  insertOldFit: (path, id, createdAt) => rawExec(path, `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities) VALUES ('${id}', '${createdAt}', 'per-agent', '{}', '{}')`),
  rawExec
}))

function rawExec(path: string, sql: string): Promise<void> {
  const db = rawDb(path)
  try {
    db.exec(sql)
    return Promise.resolve()
  } catch (e) {
    return Promise.reject(e as Error)
  } finally {
    db.close()
  }
}

describe('sqlite migration 0006: a why’s n as a sixth float64', () => {
  it('stores a why without n as the five figures schema 5 wrote, and one with n as six', async () => {
    const path = tmp.dbLocation('why.db')
    const store = await openSqliteStore(path)
    const ids: string[] = []
    try {
      await importTasks(store, [makeTask('t1')])
      for (const why of [{ round: 1, k: 128, qhat: 0.9, bias: 0.01, conc: 0.09 }, { round: 1, k: 128, n: 143, qhat: 0.9, bias: 0.01, conc: 0.09 }]) {
        const fit = (await store.saveFit({ method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null, bound: 'binomial' }, ANA)).value.id
        await saveDecisions(store, fit, [{ taskId: 't1', decision: 'defer', spotCheck: false, answer: 'true', posterior: { true: 0.6, false: 0.4 }, stopRound: null, gap: 0.1, bound: [0.8, 0.81], disagreement: 0, k: [128, 128], why }], ANA)
        ids.push(fit)
      }
    } finally {
      await store.close()
    }
    const db = rawDb(path, true)
    try {
      const blob = (fit: string) => db.prepare(`SELECT why FROM ${decisionsTable(fit)}`).pluck().get() as Buffer
      expect(blob(ids[0]).length).toBe(5 * 8)
      const six = blob(ids[1])
      expect(six.length).toBe(6 * 8)
      expect([six.readDoubleLE(8), six.readDoubleLE(40)]).toEqual([128, 143])
    } finally {
      db.close()
    }
  })
})
