/**
 * The migration that made the bound a setting and changed the defaults (sqlite 0006, postgres
 * 0003), the same checks on both backends: each fit stores its bound (old fits read Hoeffding's),
 * a `why` may carry `n`, and the old-database rule of docs/engine.md §10 — a database an older version
 * made and used keeps per-agent / λ = auto / hoeffding in one audited write; a new one does not.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Migration, Store } from '../../../src/main/store'
import { DEFAULTS_NOTICE_KEY, engineSettingsFromStored, readDefaultsNotice } from '../../../src/main/service/engine-settings'
import { DEFAULT_ENGINE_SETTINGS } from '../../../src/shared/api'
import { ANA, importTasks, makeTask, rejection, saveDecisions } from './fixtures'

export type OldDefaultsBackend = {
  /** A database location no store has opened yet. */
  fresh(): Promise<string>
  open(dbLocation: string, migrations?: readonly Migration[]): Promise<Store>
  migrations: readonly Migration[]
  /** How many of `migrations` an older Arbiter had (every one before the bound). */
  before: number
  /** A fit as the code before the bound wrote it (the store's code writes the shipped schema). */
  insertOldFit(dbLocation: string, id: string, createdAt: string): Promise<void>
  /** Runs SQL through a second, raw connection. */
  rawExec(dbLocation: string, sql: string): Promise<void>
}

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }
const OLD_DEFAULTS = { method: 'per-agent', budget: { kind: 'auto' }, bound: 'hoeffding' }

export function oldDefaultsSuite(name: string, backend: () => OldDefaultsBackend): void {
  describe(`${name}: the bound each fit ran with, and the old-database rule (docs/engine.md §10)`, () => {
    /** A database an older Arbiter made: its schema stops before the bound; `seed` writes its content. */
    async function olderDatabase(seed: (store: Store) => Promise<void>): Promise<string> {
      const b = backend()
      const dbLocation = await b.fresh()
      const old = await b.open(dbLocation, b.migrations.slice(0, b.before))
      try {
        await seed(old)
      } finally {
        await old.close()
      }
      return dbLocation
    }

    it('keeps per-agent, λ = auto and hoeffding on a database an older version used, in one audited write, with the notice', async () => {
      const dbLocation = await olderDatabase(async (s) => {
        await s.setSettings({ reviewer: 'ana', 'engine.autoRefit': false }, ANA)
        await importTasks(s, [makeTask('t1')])
      })
      const store = await backend().open(dbLocation)
      try {
        const settings = await store.getSettings()
        expect(engineSettingsFromStored(settings)).toMatchObject({ ...OLD_DEFAULTS, autoRefit: false })
        expect(settings).toMatchObject({ 'engine.method': 'per-agent', 'engine.budget': { kind: 'auto' }, 'engine.bound': 'hoeffding', reviewer: 'ana' })
        const audit = (await store.auditTail(100)).filter((a) => a.action === 'settings.set')
        // The older version's own write, then the rule's one row (the program's, not a reviewer's).
        expect(audit).toHaveLength(2)
        expect(audit[1]).toMatchObject({ reviewer: 'arbiter', target: `engine.bound,engine.budget,engine.method,${DEFAULTS_NOTICE_KEY}` })
        expect(audit[1].details).toMatchObject({ set: { 'engine.method': 'per-agent', 'engine.budget': { kind: 'auto' }, 'engine.bound': 'hoeffding' }, removed: [] })
        const notice = await readDefaultsNotice(store)
        expect(notice?.kept).toEqual(OLD_DEFAULTS)
        expect(notice?.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      } finally {
        await store.close()
      }
      // Once: opening again writes nothing more.
      const again = await backend().open(dbLocation)
      try {
        expect((await again.auditTail(100)).filter((a) => a.action === 'settings.set')).toHaveLength(2)
      } finally {
        await again.close()
      }
    })

    it('writes only the keys a used database does not store: its own budget stays', async () => {
      const dbLocation = await olderDatabase(async (s) => {
        await s.setSettings({ 'engine.budget': { kind: 'absolute', beta: 0.3 } }, ANA)
      })
      const store = await backend().open(dbLocation)
      try {
        expect(engineSettingsFromStored(await store.getSettings())).toMatchObject({ method: 'per-agent', budget: { kind: 'absolute', beta: 0.3 }, bound: 'hoeffding' })
        const rule = (await store.auditTail(100)).filter((a) => a.reviewer === 'arbiter')
        expect(rule).toHaveLength(1)
        expect(rule[0].target).toBe(`engine.bound,engine.method,${DEFAULTS_NOTICE_KEY}`)
        expect((await readDefaultsNotice(store))?.kept).toEqual({ method: 'per-agent', bound: 'hoeffding' })
      } finally {
        await store.close()
      }
    })

    it('counts a database with tasks but no settings as used, and one an older version made but never used as new', async () => {
      const used = await olderDatabase((s) => importTasks(s, [makeTask('t1')]).then(() => undefined))
      const unused = await olderDatabase(async () => {})
      const a = await backend().open(used)
      const b = await backend().open(unused)
      try {
        expect(engineSettingsFromStored(await a.getSettings())).toMatchObject(OLD_DEFAULTS)
        expect(await b.getSettings()).toEqual({})
        expect(engineSettingsFromStored(await b.getSettings())).toEqual(DEFAULT_ENGINE_SETTINGS)
        expect(await readDefaultsNotice(b)).toBeNull()
      } finally {
        await a.close()
        await b.close()
      }
    })

    it('gives a new database the new defaults (β = 0.20, binomial) and writes no setting and no audit row', async () => {
      const store = await backend().open(await backend().fresh())
      try {
        expect(await store.getSettings()).toEqual({})
        expect(await store.auditTail(100)).toEqual([])
        expect(engineSettingsFromStored({})).toMatchObject({ budget: { kind: 'absolute', beta: 0.2 }, bound: 'binomial', method: DEFAULT_ENGINE_SETTINGS.method })
        expect(await readDefaultsNotice(store)).toBeNull()
      } finally {
        await store.close()
      }
    })

    it('stores the bound with each fit; fits made before it read hoeffding; a rollback keeps it; it never changes', async () => {
      const b = backend()
      const old = randomUUID()
      const dbLocation = await olderDatabase((s) => importTasks(s, [makeTask('t1')]).then(() => undefined))
      await b.insertOldFit(dbLocation, old, '2026-11-30T09:00:00.000Z')
      const store = await b.open(dbLocation)
      try {
        expect((await store.getFit(old)).bound).toBe('hoeffding')
        const binomial = (await store.saveFit({ ...FIT, bound: 'binomial' }, ANA)).value
        expect(binomial.bound).toBe('binomial')
        expect((await store.getFit(binomial.id)).bound).toBe('binomial')
        expect((await store.saveFit({ ...FIT, bound: 'hoeffding' }, ANA)).value.bound).toBe('hoeffding')
        expect((await store.listFits(10)).map((f) => f.bound).sort()).toEqual(['binomial', 'hoeffding', 'hoeffding'])
        const bad = await rejection(store.saveFit({ ...FIT, bound: 'bernstein' as never }, ANA))
        expect(bad.code).toBe('bad_input')
        expect(bad.message).toMatch(/bound/)

        await saveDecisions(store, binomial.id, [{ taskId: 't1', decision: 'defer', spotCheck: false, answer: 'true', posterior: { true: 0.6, false: 0.4 }, stopRound: null, gap: 0.1, bound: [0.8], disagreement: 0, k: [128], why: { round: 0, k: 128, n: 143, qhat: 0.9, bias: 0.01, conc: 0.09 } }], ANA)
        expect((await store.taskDetail('t1')).decision?.why).toEqual({ round: 0, k: 128, n: 143, qhat: 0.9, bias: 0.01, conc: 0.09 })
        const other = (await store.saveFit({ ...FIT, bound: 'hoeffding' }, ANA)).value
        await saveDecisions(store, other.id, [{ taskId: 't1', decision: 'defer', spotCheck: false, answer: 'true', posterior: { true: 0.6, false: 0.4 }, stopRound: null, gap: 0.1, bound: [0.8], disagreement: 0, k: [128], why: { round: 0, k: 128, qhat: 0.9, bias: 0.01, conc: 0.09 } }], ANA)
        expect((await store.taskDetail('t1')).decision?.why).toEqual({ round: 0, k: 128, qhat: 0.9, bias: 0.01, conc: 0.09 })
        expect((await rejection(saveDecisions(store, (await store.saveFit(FIT, ANA)).value.id, [{ taskId: 't1', decision: 'defer', spotCheck: false, answer: 'true', posterior: { true: 0.6, false: 0.4 }, stopRound: null, gap: 0.1, bound: [0.8], disagreement: 0, k: [128], why: { round: 0, k: 128, n: 1.5, qhat: 0.9, bias: 0.01, conc: 0.09 } }], ANA))).message).toMatch(/why must be null or/)

        const back = (await store.rollbackFit(binomial.id, ANA)).value
        expect(back.bound).toBe('binomial')
      } finally {
        await store.close()
      }
      await expect(b.rawExec(dbLocation, `UPDATE fits SET bound = 'binomial' WHERE id = '${old}'`)).rejects.toThrow(/immutable/)
    })
  })
}
