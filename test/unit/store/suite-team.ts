/**
 * Team mode in the store (several reviewers per task), on both backends: the effective
 * label rule (votes agree → that label; disagree → none until adjudicated), what it does to the
 * queue, the exports and the fit's labels; Calibrate's draw with N reviewers per task; the tasks
 * awaiting adjudication; the sealed rule; the votes agreement is measured on.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { Actor, FitInput, LabelSource, QueueQuery, Store, TaskFilter } from '../../../src/main/store'
import { ANA, BO, decision, hasUndefined, importTasks, makeTask, NO_FILTER, rejection, saveDecisions, withTallies } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

const CY: Actor = { reviewer: 'cy', sessionId: 'session-cy', shell: 'web' }
const DEE: Actor = { reviewer: 'dee', sessionId: 'session-dee', shell: 'web' }
const FIT: FitInput = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

const page = (filter: Partial<TaskFilter>): QueueQuery => ({ filter: { ...NO_FILTER, ...filter }, sort: 'age', direction: 'asc', offset: 0, limit: 50 })

/** Records `label` on `taskId` as the actor, at the task's current version; returns the label id. */
async function label(s: Store, taskId: string, value: string, actor: Actor, opts: { source?: LabelSource; adjudicated?: boolean; supersedes?: string } = {}): Promise<string> {
  const { version } = await s.getTaskSummary(taskId)
  const r = await s.recordLabel(
    { taskId, label: value, source: opts.source ?? 'random', reviewer: actor.reviewer, expectedVersion: version, adjudicated: opts.adjudicated ?? false, supersedes: opts.supersedes ?? null },
    actor
  )
  return r.value.labelId
}

const effective = async (s: Store) => (await s.effectiveLabels()).map((e) => [e.taskId, e.label, e.reviewer])

export function defineTeamTests(makeStore: MakeStore): void {
  describe('team mode: effective labels', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [1, 2, 3, 4].map((i) => withTallies(makeTask(`t${i}`))))
      const fit = await store().saveFit(FIT, ANA)
      await saveDecisions(store(), fit.value.id, [1, 2, 3, 4].map((i) => decision(`t${i}`, 'defer', i / 10)), ANA)
    })

    it('keeps one reviewer’s rule: their latest live label counts, even over an earlier one left live', async () => {
      const s = store()
      await label(s, 't1', 'true', ANA)
      await label(s, 't1', 'false', ANA)
      expect(await effective(s)).toEqual([['t1', 'false', 'ana']])
    })

    it('takes the label the reviewers agree on, and none while they disagree', async () => {
      const s = store()
      await label(s, 't1', 'true', ANA)
      await label(s, 't1', 'true', BO)
      await label(s, 't2', 'true', ANA)
      const boOnT2 = await label(s, 't2', 'false', BO)
      expect(await effective(s)).toEqual([['t1', 'true', 'bo']])

      // The disagreeing task is human (out of the engine's queue) with no label, and no fit sees it.
      const human = await s.queuePage(page({ decision: 'human' }))
      expect(human.rows.map((r) => [r.taskId, r.state, r.label?.label ?? null])).toEqual([['t1', 'human', 'true'], ['t2', 'human', null]])
      expect(hasUndefined(human)).toBe(false)
      expect((await s.queuePage(page({ decision: 'defer' }))).rows.map((r) => r.taskId)).toEqual(['t3', 't4'])
      expect((await s.filteredTasks({ ...NO_FILTER, decision: 'defer' }, null, 10)).map((r) => r.taskId)).toEqual(['t3', 't4'])
      expect((await s.queuePage(page({ decision: null, labelSource: 'random' }))).rows.map((r) => r.taskId)).toEqual(['t1'])
      expect(await s.counts()).toMatchObject({ labeledTasks: 2, deferred: 2 })
      // A labels export keeps every reviewer's label, of agreeing and disagreeing tasks alike.
      const exported = await s.filteredLabels({ ...NO_FILTER, decision: 'human' }, null, 10)
      expect(exported.rows.map((l) => [l.taskId, l.reviewer, l.label])).toEqual([['t1', 'ana', 'true'], ['t1', 'bo', 'true'], ['t2', 'ana', 'true'], ['t2', 'bo', 'false']])

      // Bo changes their mind (a replacement): the votes agree again.
      await label(s, 't2', 'true', BO, { supersedes: boOnT2 })
      expect(await effective(s)).toEqual([['t1', 'true', 'bo'], ['t2', 'true', 'bo']])
    })

    it('lets an adjudicated label settle a disagreement, and an undo of it reopen one', async () => {
      const s = store()
      await label(s, 't3', 'true', ANA)
      await label(s, 't3', 'false', BO)
      const adj = await label(s, 't3', 'false', CY, { adjudicated: true })
      expect(await effective(s)).toEqual([['t3', 'false', 'cy']])
      expect((await s.auditTail(1))[0]).toMatchObject({ action: 'label.adjudicate', target: 't3', reviewer: 'cy', details: { labelId: adj, label: 'false', adjudicated: true } })
      const row = (await s.queuePage(page({ decision: 'human' }))).rows[0]
      expect(row).toMatchObject({ taskId: 't3', state: 'human', answer: 'false', label: { labelId: adj, reviewer: 'cy' } })
      await s.undoLabel({ labelId: adj, expectedVersion: (await s.getTaskSummary('t3')).version, mayUndoRulings: true }, CY)
      expect(await effective(s)).toEqual([])
    })
  })

  describe('team mode: sealed tasks, adjudication and votes', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [1, 2, 3, 4, 5].map((i) => makeTask(`t${i}`)))
    })
    const draw = (s: Store, reviewer: string | null, reviewersPerTask: number, at = 0) =>
      s.drawUnlabeled({ at, exclude: [], spotCheckOnly: false, reviewer, reviewersPerTask })

    it('keeps a task drawable until N reviewers labeled it, never for one who did', async () => {
      const s = store()
      await label(s, 't1', 'true', ANA)
      await label(s, 't2', 'true', ANA, { source: 'escalation' })
      await label(s, 't3', 'true', ANA)
      await label(s, 't3', 'true', BO)
      // N = 1 (the default): tasks without a live label, whoever asks.
      expect(await draw(s, 'bo', 1)).toMatchObject({ taskId: 't4', unlabeled: 2 })
      // t1 and t3 hold blind labels (t3 two of them): two tasks of the calibration set.
      expect(await s.drawUnlabeled({ at: 0, exclude: [], spotCheckOnly: false })).toMatchObject({ taskId: 't4', unlabeled: 2, randomLabels: 2 })
      // N = 2: Bo may still get t1 (Ana's blind label); Ana may not; t2 (an escalation label) and t3 (two reviewers) are out.
      expect(await draw(s, 'bo', 2)).toMatchObject({ taskId: 't1', unlabeled: 3 })
      expect(await draw(s, 'ana', 2)).toMatchObject({ taskId: 't4', unlabeled: 2 })
      expect(await draw(s, 'cy', 2, 0.99)).toMatchObject({ taskId: 't5', unlabeled: 3 })
      // N = 3: t3 needs one more reviewer, not Ana nor Bo.
      expect((await draw(s, 'cy', 3, 0.4)).taskId).toBe('t3')
      expect(await draw(s, 'bo', 3)).toMatchObject({ taskId: 't1', unlabeled: 3 })
      expect((await rejection(draw(s, 'bo', 0))).code).toBe('bad_input')
      expect((await rejection(draw(s, '', 2))).code).toBe('bad_input')
    })

    it('lists disagreements once the blind batch is complete, with every label, until adjudicated', async () => {
      const s = store()
      await label(s, 't1', 'true', ANA)
      await label(s, 't1', 'false', BO)
      await label(s, 't2', 'true', ANA)
      await label(s, 't2', 'true', BO)
      await label(s, 't3', 'true', ANA, { source: 'escalation' })
      await label(s, 't3', 'false', BO, { source: 'escalation' })
      const list = await s.awaitingAdjudication({ reviewersPerTask: 2, taskId: null, offset: 0, limit: 50 })
      expect(list.total).toBe(2)
      expect(list.rows.map((r) => [r.taskId, r.labels.map((l) => `${l.reviewer}:${l.label}`)])).toEqual([
        ['t1', ['ana:true', 'bo:false']],
        ['t3', ['ana:true', 'bo:false']]
      ])
      expect(list.rows[0]).toMatchObject({ question: 'Is claim t1 true?', group: 'G1', candidates: ['true', 'false'], version: 2 })
      expect(hasUndefined(list)).toBe(false)
      // With N = 3 the blind task t1 waits for a third reviewer; the escalated t3 does not.
      expect((await s.awaitingAdjudication({ reviewersPerTask: 3, taskId: null, offset: 0, limit: 50 })).rows.map((r) => r.taskId)).toEqual(['t3'])
      expect((await s.awaitingAdjudication({ reviewersPerTask: 2, taskId: null, offset: 1, limit: 1 })).rows.map((r) => r.taskId)).toEqual(['t3'])
      expect((await s.awaitingAdjudication({ reviewersPerTask: 2, taskId: 't2', offset: 0, limit: 1 })).total).toBe(0)
      await label(s, 't1', 'false', CY, { adjudicated: true })
      expect((await s.awaitingAdjudication({ reviewersPerTask: 2, taskId: null, offset: 0, limit: 50 })).rows.map((r) => r.taskId)).toEqual(['t3'])
      expect((await s.awaitingAdjudication({ reviewersPerTask: 2, taskId: 't1', offset: 0, limit: 1 })).total).toBe(0)
      expect((await rejection(s.awaitingAdjudication({ reviewersPerTask: 0, taskId: null, offset: 0, limit: 5 }))).code).toBe('bad_input')
    })

    it('says which tasks are sealed for a reviewer: still sealed, labeled by others, not by them', async () => {
      const s = store()
      await label(s, 't1', 'true', ANA)
      await label(s, 't2', 'true', ANA)
      await label(s, 't2', 'false', BO)
      await label(s, 't3', 'true', ANA, { source: 'escalation' })
      const ids = ['t5', 't1', 't2', 't3', 't4']
      expect(await s.sealedTasks({ taskIds: ids, reviewer: 'bo', reviewersPerTask: 2 })).toEqual(['t1'])
      expect(await s.sealedTasks({ taskIds: ids, reviewer: 'ana', reviewersPerTask: 2 })).toEqual([])
      expect(await s.sealedTasks({ taskIds: ids, reviewer: 'cy', reviewersPerTask: 3 })).toEqual(['t1', 't2'])
      expect(await s.sealedTasks({ taskIds: ids, reviewer: 'bo', reviewersPerTask: 1 })).toEqual([])
      expect((await rejection(s.sealedTasks({ taskIds: 't1' as unknown as string[], reviewer: 'bo', reviewersPerTask: 2 }))).code).toBe('bad_input')
    })

    it('gives every reviewer’s vote on tasks two or more labeled, never an adjudicator’s ruling', async () => {
      const s = store()
      await label(s, 't1', 'true', ANA)
      await label(s, 't1', 'false', BO)
      await label(s, 't1', 'true', BO) // Bo's later label is their vote
      await label(s, 't1', 'false', DEE, { adjudicated: true })
      await label(s, 't2', 'true', ANA) // one reviewer: no pair
      await label(s, 't3', 'false', CY)
      await label(s, 't3', 'true', ANA)
      expect((await s.votes()).map((v) => [v.taskId, v.reviewer, v.label])).toEqual([
        ['t1', 'ana', 'true'], ['t1', 'bo', 'true'], ['t3', 'ana', 'true'], ['t3', 'cy', 'false']
      ])
    })
  })
}
