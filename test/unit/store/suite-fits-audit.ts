import { beforeEach, describe, expect, it } from 'vitest'
import type { FitInput, Store } from '../../../src/main/store'
import { ANA, appendDecisions, BO, decision, hasUndefined, importTasks, makeTask, NO_FILTER, rawPage, rejection, saveDecisions, sha } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

const FIT: FitInput = {
  method: 'per-agent',
  hyperparameters: { b: 1, kappa: 2, s: 0.5 },
  reliabilities: { A1: 0.8, A2: 0.3, A3: 0.6 },
  certificate: { alpha: 0.05, beta: 0.1 },
  metrics: { act: 0.5 },
  parentFitId: null
}

export function defineFitAndAuditTests(makeStore: MakeStore): void {
  describe('fits and decisions', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2'), makeTask('t3', { group: 'G2' })])
    })

    it('saves a fit, then its decisions once, and counts the newest decided fit', async () => {
      const fit = await store().saveFit(FIT, ANA)
      expect(fit.value).toMatchObject({ ...FIT, decidedAt: null, decisionCount: 0 })
      expect(fit.topics).toEqual(expect.arrayContaining(['fits', 'audit']))
      expect(await store().latestFit()).toEqual(fit.value)
      expect((await store().counts()).fits).toBe(1)
      expect((await store().counts()).deferred).toBe(0) // not decided yet

      const rows = [
        decision('t1', 'act', -0.1),
        decision('t2', 'defer', 0.2, { spotCheck: true, stopRound: null, bound: null }),
        decision('t3', 'defer', 0.3, { answer: null, gap: null, disagreement: null })
      ]
      const saved = await saveDecisions(store(), fit.value.id, rows, ANA)
      expect(saved.value).toMatchObject({ fitId: fit.value.id, count: 3 })
      expect(saved.topics).toEqual(expect.arrayContaining(['decisions', 'audit']))
      expect(await store().counts()).toMatchObject({ acted: 1, deferred: 2, spotCheck: 1, fits: 1 })
      const latest = await store().latestFit()
      expect(latest?.decidedAt).toBe(saved.value.decidedAt)
      expect(latest?.decisionCount).toBe(3)
      expect(hasUndefined(latest)).toBe(false)

      expect((await rejection(saveDecisions(store(), fit.value.id, rows, ANA))).code).toBe('conflict')

      // A child fit is the latest fit at once, but counts keep showing the decided parent.
      const child = await store().saveFit({ ...FIT, parentFitId: fit.value.id }, ANA)
      expect((await store().latestFit())?.id).toBe(child.value.id)
      expect(await store().counts()).toMatchObject({ acted: 1, deferred: 2, fits: 2 })
      await saveDecisions(store(), child.value.id, [decision('t1', 'defer', 0.1)], ANA)
      expect(await store().counts()).toMatchObject({ acted: 0, deferred: 1, spotCheck: 0 })
    })

    it('writes no decision when one row is bad', async () => {
      const fit = await store().saveFit(FIT, ANA)
      const missing = await rejection(saveDecisions(store(), fit.value.id, [decision('t1', 'act', -1), decision('ghost', 'defer', 1)], ANA))
      expect(missing.code).toBe('not_found')
      const badAnswer = await rejection(saveDecisions(store(), fit.value.id, [decision('t1', 'act', -1, { answer: 'maybe' })], ANA))
      expect(badAnswer.code).toBe('bad_input')
      // The store's own check of a page, not the rows' check on the way to it.
      const dup = await rejection(store().appendDecisionPage(fit.value.id, rawPage([decision('t1', 'act', -1), decision('t1', 'act', -1)])))
      expect(dup).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/task t1 appears twice/) })
      expect((await store().latestFit())?.decidedAt).toBeNull()
      expect((await rejection(saveDecisions(store(), 'no-such-fit', [], ANA))).code).toBe('not_found')
      expect((await rejection(store().saveFit({ ...FIT, parentFitId: 'no-such-fit' }, ANA))).code).toBe('not_found')
    })

    it('refuses a posterior whose keys are not exactly the task\'s candidates, and a partial gap decomposition', async () => {
      const fit = await store().saveFit(FIT, ANA)
      const wrong: Record<string, number>[] = [{ true: 1 }, { true: 0.5, false: 0.3, maybe: 0.2 }, { true: 0.5, maybe: 0.5 }]
      for (const posterior of wrong) {
        const bad = await rejection(saveDecisions(store(), fit.value.id, [decision('t1', 'act', -1, { posterior })], ANA))
        expect(bad.code).toBe('bad_input')
        expect(bad.message).toContain('posterior of task t1')
      }
      const partial = [decision('t1', 'defer', 0.1, { why: { round: 1, k: 8, qhat: 0.9, bias: 0.01 } as never })]
      for (const why of [await rejection(saveDecisions(store(), fit.value.id, partial, ANA)), await rejection(store().appendDecisionPage(fit.value.id, rawPage(partial)))]) {
        expect(why.code).toBe('bad_input')
        expect(why.message).toContain('why')
      }
      const nan = await rejection(saveDecisions(store(), fit.value.id, [decision('t1', 'defer', 0.1, { bound: [0.5, Number.NaN] })], ANA))
      expect(nan.code).toBe('bad_input')
      // In a page NaN is null: a NaN posterior, an infinite bound are the page check's to refuse.
      const nanPosterior = await rejection(store().appendDecisionPage(fit.value.id, rawPage([decision('t1', 'defer', 0.1, { posterior: { true: Number.NaN, false: 0.5 } })])))
      expect(nanPosterior).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/posterior must be finite/) })
      const infinite = await rejection(store().appendDecisionPage(fit.value.id, rawPage([decision('t1', 'defer', 0.1, { bound: [0.5, Number.POSITIVE_INFINITY] })])))
      expect(infinite).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/bound must be finite numbers or nulls/) })
      expect((await store().getFit(fit.value.id)).decisionCount).toBe(0)
    })

    it('gives back every number of a decision exactly as saved, nulls in lists included', async () => {
      const fit = await store().saveFit(FIT, ANA)
      // Candidate order [true, false]; the posterior's keys in the other order, and floats that
      // need all 17 digits to round-trip.
      const row = decision('t2', 'defer', 0.1 + 0.2, {
        posterior: { false: 1 / 3, true: 2 / 3 },
        bound: [0.1 + 0.7, null, 1e-300],
        k: [64, null, 512],
        why: { round: 2, k: 512, qhat: 0.9556962025316456, bias: 0, conc: 0.10817614891264284 },
        disagreement: 1 / 7,
        reason: null
      })
      await saveDecisions(store(), fit.value.id, [row, decision('t3', 'defer', 0.4, { why: null, k: null, bound: null })], ANA)
      const d = (await store().taskDetail('t2')).decision
      expect(d).toMatchObject({ posterior: { true: 2 / 3, false: 1 / 3 }, bound: [0.1 + 0.7, null, 1e-300], k: [64, null, 512], gap: 0.1 + 0.2, disagreement: 1 / 7 })
      expect(d?.why).toEqual({ round: 2, k: 512, qhat: 0.9556962025316456, bias: 0, conc: 0.10817614891264284 })
      expect((await store().taskDetail('t3')).decision).toMatchObject({ why: null, k: null, bound: null })
      const page = await store().queuePage({ filter: { ...NO_FILTER, decision: 'defer' }, sort: 'gap', direction: 'asc', offset: 0, limit: 10 })
      expect(page.rows.map((r) => [r.taskId, r.posterior, r.bound])).toEqual([
        ['t2', { true: 2 / 3, false: 1 / 3 }, [0.1 + 0.7, null, 1e-300]],
        ['t3', { true: 0.7, false: 0.3 }, null]
      ])
    })

    it('keeps appended pages out of sight until the finish makes them current together', async () => {
      const first = await store().saveFit(FIT, ANA)
      await saveDecisions(store(), first.value.id, [decision('t1', 'defer', 0.1), decision('t2', 'defer', 0.2), decision('t3', 'defer', 0.3)], ANA)
      const next = await store().saveFit({ ...FIT, parentFitId: first.value.id }, ANA)
      const page1 = await appendDecisions(store(), next.value.id, [decision('t1', 'act', -0.1, { spotCheck: true }), decision('t2', 'act', -0.2)])
      expect(page1).toEqual({ value: 2, topics: [] })
      await appendDecisions(store(), next.value.id, [decision('t3', 'defer', 0.4)])
      // Still the first fit's queue: three deferred, nothing acted.
      expect(await store().counts()).toMatchObject({ acted: 0, deferred: 3, spotCheck: 0 })
      expect((await store().currentFit())?.id).toBe(first.value.id)

      const done = await store().finishDecisions(next.value.id, BO)
      expect(done.value).toMatchObject({ fitId: next.value.id, count: 3 })
      expect(done.topics).toEqual(expect.arrayContaining(['decisions', 'fits', 'audit']))
      expect(await store().counts()).toMatchObject({ acted: 2, deferred: 1, spotCheck: 1 })
      expect((await store().currentFit())?.id).toBe(next.value.id)
      expect((await store().getFit(next.value.id)).decisionCount).toBe(3)
      const audit = (await store().auditTail(1)).at(-1)
      expect(audit).toMatchObject({ action: 'decisions.save', target: next.value.id, reviewer: BO.reviewer, details: { count: 3, acted: 2, deferred: 1, spotCheck: 1 } })

      expect((await rejection(store().finishDecisions(next.value.id, ANA))).code).toBe('conflict')
      expect((await rejection(appendDecisions(store(), next.value.id, [decision('t1', 'act', -1)]))).code).toBe('conflict')
      expect((await rejection(store().appendDecisionPage('no-such-fit', rawPage([decision('t1', 'act', -1)])))).code).toBe('not_found')
      expect((await rejection(store().finishDecisions('no-such-fit', ANA))).code).toBe('not_found')
    })

    it('builds an undecided fit\'s queue indexes one transaction at a time; the finish then builds none twice', async () => {
      const fit = await store().saveFit(FIT, ANA)
      await appendDecisions(store(), fit.value.id, [decision('t1', 'defer', 0.3), decision('t2', 'act', -0.2), decision('t3', 'defer', 0.1)])
      const left: number[] = []
      for (let i = 0; i < 5; i++) left.push((await store().indexDecisions(fit.value.id, i)).value)
      expect(left).toEqual([3, 2, 1, 0, 0])
      // Repeating one is harmless (a decide retried after a crash between two of them).
      expect((await store().indexDecisions(fit.value.id, 1)).value).toBe(2)
      expect((await rejection(store().indexDecisions(fit.value.id, -1))).code).toBe('bad_input')
      expect((await store().currentFit())).toBeNull()
      expect((await store().finishDecisions(fit.value.id, ANA)).value.count).toBe(3)
      const page = await store().queuePage({ filter: { ...NO_FILTER, decision: 'defer' }, sort: 'gap', direction: 'asc', offset: 0, limit: 10 })
      expect(page.rows.map((r) => r.taskId)).toEqual(['t3', 't1'])
      expect((await rejection(store().indexDecisions(fit.value.id, 0))).code).toBe('conflict')
      expect((await rejection(store().indexDecisions('no-such-fit', 0))).code).toBe('not_found')
    })

    it('refuses a task decided twice across pages, and a bad page leaves the pages before it', async () => {
      const fit = await store().saveFit(FIT, ANA)
      await appendDecisions(store(), fit.value.id, [decision('t1', 'act', -0.1)])
      const again = await rejection(appendDecisions(store(), fit.value.id, [decision('t2', 'defer', 0.2), decision('t1', 'defer', 0.3)]))
      expect(again).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/task t1 appears twice/) })
      expect((await rejection(appendDecisions(store(), fit.value.id, [decision('ghost', 'defer', 1)]))).code).toBe('not_found')
      expect((await store().getFit(fit.value.id)).decisionCount).toBe(1)
      await appendDecisions(store(), fit.value.id, [decision('t2', 'defer', 0.2)])
      expect((await store().finishDecisions(fit.value.id, ANA)).value.count).toBe(2)
      expect(await store().counts()).toMatchObject({ acted: 1, deferred: 1 })
    })

    it('writes a page whose tasks come from several published imports, and refuses one whose task is still staged', async () => {
      await importTasks(store(), [makeTask('u1', { group: 'G3' }), makeTask('u2')], 'b.trace.jsonl')
      const staged = await store().beginImport({ fileName: 'c.trace.jsonl', sha256: sha('c-staged'), kind: 'traces' }, ANA)
      await store().writeImportBatch(staged.value.id, { tasks: [makeTask('s1')] })
      const fit = await store().saveFit(FIT, ANA)
      const refused = await rejection(appendDecisions(store(), fit.value.id, [decision('t1', 'act', -0.1), decision('s1', 'defer', 0.2)]))
      expect(refused).toMatchObject({ code: 'not_found', message: expect.stringMatching(/s1/) })
      expect((await store().getFit(fit.value.id)).decisionCount).toBe(0)
      await appendDecisions(store(), fit.value.id, [decision('t1', 'act', -0.1), decision('u1', 'defer', 0.2), decision('t3', 'defer', 0.3), decision('u2', 'act', -0.2)])
      expect((await store().finishDecisions(fit.value.id, ANA)).value.count).toBe(4)
      const page = await store().queuePage({ filter: { ...NO_FILTER, decision: 'defer' }, sort: 'gap', direction: 'asc', offset: 0, limit: 10 })
      // Each row carries its own task's group, whichever import it came from.
      expect(page.rows.map((r) => [r.taskId, r.group])).toEqual([['u1', 'G3'], ['t3', 'G2']])
    })
  })

  describe('audit log', () => {
    const store = useStore(makeStore)

    /** Runs `op` and returns the audit rows it appended. */
    async function audited(s: Store, op: () => Promise<unknown>) {
      const before = await s.auditTail(1000)
      await op()
      const after = await s.auditTail(1000)
      return after.slice(before.length)
    }

    it('gets exactly one row, with the actor, from every write op', async () => {
      const s = store()
      const begun = await s.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      await s.writeImportBatch(begun.value.id, { tasks: [makeTask('t1')] })
      let fitId = ''
      let labelId = ''
      const ops: [string, () => Promise<unknown>][] = [
        ['import.publish', () => s.publishImport(begun.value.id, BO)],
        ['settings.set', () => s.setSettings({ reviewer: 'bo' }, BO)],
        ['label.record', async () => {
          labelId = (await s.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'bo', expectedVersion: 0 }, BO)).value.labelId
        }],
        ['label.undo', () => s.undoLabel({ labelId, expectedVersion: 1 }, BO)],
        ['fit.save', async () => {
          fitId = (await s.saveFit(FIT, BO)).value.id
        }],
        ['decisions.save', () => saveDecisions(s, fitId, [decision('t1', 'defer', 0.2)], BO)]
      ]
      let lastSeq = 0
      for (const [action, op] of ops) {
        const rows = await audited(s, op)
        expect(rows, action).toHaveLength(1)
        expect(rows[0]).toMatchObject({ action, reviewer: 'bo', sessionId: BO.sessionId, shell: 'web' })
        expect(rows[0].seq).toBeGreaterThan(lastSeq)
        expect(rows[0].at).toMatch(/Z$/)
        expect(hasUndefined(rows[0])).toBe(false)
        lastSeq = rows[0].seq
      }
      const publish = (await s.auditTail(10)).find((a) => a.action === 'import.publish')
      expect(publish?.target).toBe(begun.value.id)
      expect(publish?.details).toMatchObject({ fileName: 'a.jsonl', begunBy: 'ana' })
    })

    it('gets no row from the staging steps of an import, so a failed import leaves no trace', async () => {
      const s = store()
      const rows = await audited(s, async () => {
        const begun = await s.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
        await s.writeImportBatch(begun.value.id, { tasks: [makeTask('t1')] })
        await s.abandonImport(begun.value.id)
      })
      expect(rows).toEqual([])
    })

    it('returns the tail oldest first, limited', async () => {
      const s = store()
      for (let i = 0; i < 5; i++) await s.setSettings({ k: i }, ANA)
      const tail = await s.auditTail(3)
      expect(tail.map((a) => a.details)).toEqual([
        { set: { k: 2 }, removed: [] },
        { set: { k: 3 }, removed: [] },
        { set: { k: 4 }, removed: [] }
      ])
      expect((await rejection(s.auditTail(0))).code).toBe('bad_input')
    })
  })
}
