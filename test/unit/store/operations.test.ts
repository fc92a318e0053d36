import { describe, expect, it } from 'vitest'
import { buildStore, type Driver } from '../../../src/main/store/build-store'
import { OPERATIONS, topicsOf } from '../../../src/main/store/operations'
import { openSqliteStore } from '../../../src/main/store'
import { SQLITE } from '../../../src/main/store/sqlite/dialect'
import { SqliteImportLocks } from '../../../src/main/store/sqlite/import-lock'
import type { StoreError } from '../../../src/main/store/contract'

describe('the table of operations', () => {
  it('gives each write its topics, and a union of several in first-named order', () => {
    expect(topicsOf('setSettings')).toEqual(['settings', 'audit'])
    expect(topicsOf('saveFit', 'saveTallies', 'finishDecisions')).toEqual(['fits', 'audit', 'tasks', 'decisions'])
    expect(topicsOf('appendDecisionPage', 'queuePage')).toEqual([])
  })

  it('makes a store whose methods are exactly the table and its lifecycle', async () => {
    const store = await openSqliteStore(':memory:')
    try {
      const methods = Object.keys(store).sort()
      expect(methods).toEqual([...Object.keys(OPERATIONS), 'close'].sort())
      for (const m of methods) expect(typeof (store as unknown as Record<string, unknown>)[m]).toBe('function')
    } finally {
      await store.close()
    }
  })

  it('refuses a backend that lacks an operation the table gives no plan for', () => {
    const driver: Driver<null> = {
      dialect: SQLITE, readonly: false, now: () => new Date(), transaction: (_tx, _topics, fn) => fn(null),
      runPlan: () => undefined as never, toStoreError: (e) => e as StoreError, close: () => undefined,
      importLocks: new SqliteImportLocks(null, undefined)
    }
    expect(() => buildStore(driver, {})).toThrow(/has no info/)
  })
})
