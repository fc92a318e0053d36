/**
 * The backend-neutral store test suite (docs/architecture.md: "One store test suite, parameterised by
 * backend"). A backend's test file calls `defineStoreSuite` with a factory for a fresh, empty,
 * migrated store; backend-specific behaviour (raw SQL, files, migrations) is tested elsewhere.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreError, type Store } from '../../../src/main/store'
import { ANA, hasUndefined, rejection } from './fixtures'
import { defineFitAndAuditTests } from './suite-fits-audit'
import { defineHistoryAndFlagTests } from './suite-history-flags'
import { defineImportTests } from './suite-imports'
import { defineLabelTests } from './suite-labels'
import { defineQueueTests } from './suite-queue'
import { defineReservationTests } from './suite-reservations'
import { defineSecurityTests } from './suite-security'
import { defineTallyTests } from './suite-tallies'
import { defineTeamTests } from './suite-team'
import { defineWhatIfTests } from './suite-what-if'

export type StoreHandle = {
  store: Store
  cleanup: () => Promise<void>
  /** Another store on the same database, as another process opens it (closed by `cleanup`). */
  another: () => Promise<Store>
  /**
   * Makes a store lose an import's lock while it stays open, as if the OS or the server had
   * dropped it (SQLite: its lock file deleted; PostgreSQL: its lock's session terminated).
   */
  loseImportLock: (importId: string) => Promise<void>
}
/** A fresh store; `now` replaces its clock (the reservation tests move time by hand). */
export type MakeStore = (opts?: { now?: () => Date }) => Promise<StoreHandle>

/** Gives each test a fresh store; `get()` returns the current one. */
export function useStore(makeStore: MakeStore): () => Store {
  let handle: StoreHandle | null = null
  beforeEach(async () => {
    handle = await makeStore()
  })
  afterEach(async () => {
    await handle?.cleanup()
    handle = null
  })
  return () => {
    if (handle === null) throw new Error('no store (used outside a test)')
    return handle.store
  }
}

export function defineStoreSuite(name: string, makeStore: MakeStore): void {
  describe(`store suite: ${name}`, () => {
    describe('a fresh store', () => {
      const store = useStore(makeStore)

      it('is migrated to the latest schema and reports it', async () => {
        const info = await store().info()
        expect(info.schemaVersion).toBeGreaterThanOrEqual(1)
        expect(info.readonly).toBe(false)
        expect(info.migration).not.toBeNull()
        expect(info.migration?.from).toBe(0)
        expect(info.migration?.backupPath).toBeNull()
        expect(hasUndefined(info)).toBe(false)
      })

      it('counts zero everywhere and has no fit', async () => {
        expect(await store().counts()).toEqual({
          tasks: 0, seats: 0, moves: 0, labels: 0, labeledTasks: 0, deferred: 0, acted: 0, spotCheck: 0, fits: 0
        })
        expect(await store().latestFit()).toBeNull()
        expect(await store().auditTail(10)).toEqual([])
      })

      it('passes its integrity check', async () => {
        expect(await store().integrityCheck()).toEqual({ ok: true, messages: [] })
      })

      it('reports a numeric data version', async () => {
        expect(Number.isInteger(await store().dataVersion())).toBe(true)
      })
    })

    describe('settings', () => {
      const store = useStore(makeStore)

      it('starts empty, merges patches and removes keys patched to null', async () => {
        expect(await store().getSettings()).toEqual({})
        const first = await store().setSettings({ method: 'per-agent', budget: { lambda: 'auto' }, spotRate: 0.05 }, ANA)
        expect(first.value).toEqual({ method: 'per-agent', budget: { lambda: 'auto' }, spotRate: 0.05 })
        expect(first.topics).toEqual(expect.arrayContaining(['settings', 'audit']))
        const second = await store().setSettings({ method: 'shared', spotRate: null }, ANA)
        expect(second.value).toEqual({ method: 'shared', budget: { lambda: 'auto' } })
        expect(await store().getSettings()).toEqual({ method: 'shared', budget: { lambda: 'auto' } })
      })

      it('refuses values that are not plain JSON, writing nothing', async () => {
        const e = await rejection(store().setSettings({ x: Number.NaN }, ANA))
        expect(e).toBeInstanceOf(StoreError)
        expect(e.code).toBe('bad_input')
        expect(await store().getSettings()).toEqual({})
        expect(await store().auditTail(10)).toEqual([])
      })

      it('refuses a malformed actor', async () => {
        const e = await rejection(store().setSettings({ a: 1 }, { reviewer: '', sessionId: 's', shell: 'cli' }))
        expect(e.code).toBe('bad_input')
      })
    })

    defineImportTests(makeStore)
    defineLabelTests(makeStore)
    defineHistoryAndFlagTests(makeStore)
    defineFitAndAuditTests(makeStore)
    defineTallyTests(makeStore)
    defineQueueTests(makeStore)
    defineReservationTests(makeStore)
    defineTeamTests(makeStore)
    defineSecurityTests(makeStore)
    defineWhatIfTests(makeStore)

    describe('closing', () => {
      const store = useStore(makeStore)

      it('rejects every later call with a StoreError', async () => {
        const s = store()
        await s.close()
        await s.close() // idempotent
        const e = await rejection(s.counts())
        expect(e).toBeInstanceOf(StoreError)
        expect(e.code).toBe('internal')
        expect(e.message).toMatch(/closed/)
      })
    })
  })
}
