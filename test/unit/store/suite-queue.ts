import { beforeEach, describe, expect, it } from 'vitest'
import type { FitInput, QueueQuery, Store, TaskFilter, TaskInput } from '../../../src/main/store'
import { ANA, BO, decision, hasUndefined, importTasks, makeTask, NO_FILTER, rejection, saveDecisions, withTallies } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

const FIT: FitInput = { method: 'per-agent', hyperparameters: { b: 0.7 }, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }

/** Five tasks: t1..t5, groups G1/G2, a question word each; decided by one fit. */
async function seed(s: Store): Promise<string> {
  tasks = [1, 2, 3, 4, 5].map((i) => {
    const t = withTallies(makeTask(`t${i}`, { group: i <= 3 ? 'G1' : 'G2' }))
    return { ...t, question: `${['Aspirin', 'Statins', 'Vitamin', 'Aspirin dosage', 'Coffee'][i - 1]} claim ${i}` }
  })
  // t5 is also moved in by seat S9 alone
  tasks[4] = withTallies({ ...tasks[4], moves: [{ ...tasks[4].moves[0], seat: 'S9' }] })
  await importTasks(s, tasks)
  const fit = await s.saveFit(FIT, ANA)
  await saveDecisions(s, fit.value.id, [
    decision('t1', 'defer', 0.3, { disagreement: 0.1 }),
    decision('t2', 'defer', 0.1, { disagreement: 0.5, answer: 'false' }),
    decision('t3', 'act', -0.2, { disagreement: 0.0, spotCheck: true, k: [128, 256], why: { round: 1, k: 256, qhat: 0.9, bias: 0, conc: 0.1 } }),
    decision('t4', 'defer', 0.2, { disagreement: 0.3, reason: 'no-usable-k' }),
    decision('t5', 'defer', 0.05, { disagreement: 0.2 })
  ], ANA)
  return fit.value.id
}

let tasks: TaskInput[] = []

const q = (filter: Partial<TaskFilter> = {}, rest: Partial<QueueQuery> = {}): QueueQuery => ({
  filter: { ...NO_FILTER, decision: 'defer', ...filter }, sort: 'gap', direction: 'asc', offset: 0, limit: 50, ...rest
})

export function defineQueueTests(makeStore: MakeStore): void {
  describe('review queue', () => {
    const store = useStore(makeStore)
    let fitId = ''
    beforeEach(async () => {
      fitId = await seed(store())
    })
    const ids = async (query: QueueQuery) => (await store().queuePage(query)).rows.map((r) => r.taskId)

    it('pages deferred tasks, closest to acting first, with the total', async () => {
      const page = await store().queuePage(q())
      expect(page.rows.map((r) => r.taskId)).toEqual(['t5', 't2', 't4', 't1'])
      expect(page).toMatchObject({ total: 4, fitId })
      expect(page.rows[1]).toMatchObject({ taskId: 't2', state: 'defer', decision: 'defer', answer: 'false', gap: 0.1, disagreement: 0.5, group: 'G1', version: 0, label: null, reservedBy: null, method: 'per-agent' })
      expect(hasUndefined(page)).toBe(false)
      // Each row counts its trace's moves (t5 was rewritten to one move).
      expect(page.rows.map((r) => r.moves)).toEqual([1, ...[1, 3, 0].map((i) => tasks[i].moves.length)])
      expect(await ids(q({}, { offset: 1, limit: 2 }))).toEqual(['t2', 't4'])
      expect((await store().queuePage(q({}, { offset: 1, limit: 2 }))).total).toBe(4)
    })

    it('sorts by gap either way, age, disagreement (most first) and group', async () => {
      expect(await ids(q({}, { direction: 'desc' }))).toEqual(['t1', 't4', 't2', 't5'])
      expect(await ids(q({}, { sort: 'age' }))).toEqual(['t1', 't2', 't4', 't5'])
      expect(await ids(q({}, { sort: 'disagreement' }))).toEqual(['t2', 't4', 't5', 't1'])
      expect(await ids(q({}, { sort: 'group' }))).toEqual(['t2', 't1', 't5', 't4'])
    })

    it('filters by state, group, seat, candidate, spot-check and search', async () => {
      expect(await ids(q({ decision: 'act' }))).toEqual(['t3'])
      expect(await ids(q({ group: 'G2' }))).toEqual(['t5', 't4'])
      expect(await ids(q({ seat: 'S9' }))).toEqual(['t5'])
      expect(await ids(q({ seat: 'A2' }))).toEqual(['t2', 't4', 't1'])
      expect(await ids(q({ candidate: 'false' }))).toEqual(['t2'])
      expect(await ids(q({ decision: 'act', spotCheck: true }))).toEqual(['t3'])
      expect(await ids(q({ spotCheck: true }))).toEqual([])
      expect(await ids(q({ search: 'aspirin' }))).toEqual(['t4', 't1'])
      expect(await ids(q({ search: 'asp dos' }))).toEqual(['t4'])
      expect(await ids(q({ search: 't2' }))).toEqual(['t2'])
      expect(await ids(q({ search: '"; DROP TABLE tasks; --' }))).toEqual([])
      expect(await ids(q({ decision: null }, { sort: 'age' }))).toEqual(['t1', 't2', 't3', 't4', 't5'])
      expect(await ids(q({ labelSource: 'random' }))).toEqual([])
    })

    it('moves a labeled task out of the queue into the human state, and back on undo', async () => {
      const s = store()
      const l = await s.recordLabel({ taskId: 't2', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      expect(await ids(q())).toEqual(['t5', 't4', 't1'])
      const human = await s.queuePage(q({ decision: 'human' }))
      expect(human.rows.map((r) => [r.taskId, r.state, r.answer, r.label?.source])).toEqual([['t2', 'human', 'true', 'escalation']])
      expect(await ids(q({ decision: null, labelSource: 'escalation' }))).toEqual(['t2'])
      expect(await ids(q({ decision: null, candidate: 'true' }, { sort: 'age' }))).toEqual(['t1', 't2', 't3', 't4', 't5'])
      expect(await s.counts()).toMatchObject({ deferred: 3, acted: 1, labeledTasks: 1 })
      await s.undoLabel({ labelId: l.value.labelId, expectedVersion: 1 }, ANA)
      expect(await ids(q())).toEqual(['t5', 't2', 't4', 't1'])
    })

    it('lists the same filter in task-id pages for exports, and the live labels of those tasks', async () => {
      const s = store()
      await s.recordLabel({ taskId: 't4', label: 'false', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const all = await s.filteredTasks(NO_FILTER, null, 2)
      expect(all.map((r) => r.taskId)).toEqual(['t1', 't2'])
      expect((await s.filteredTasks(NO_FILTER, 't2', 10)).map((r) => [r.taskId, r.state])).toEqual([['t3', 'act'], ['t4', 'human'], ['t5', 'defer']])
      expect((await s.filteredTasks({ ...NO_FILTER, decision: 'defer', group: 'G1' }, null, 10)).map((r) => r.taskId)).toEqual(['t1', 't2'])
      const labels = await s.filteredLabels({ ...NO_FILTER, decision: 'human' }, null, 10)
      expect(labels.rows.map((l) => [l.taskId, l.label])).toEqual([['t4', 'false']])
      expect(labels.lastTaskId).toBe('t4')
      expect(await s.filteredLabels({ ...NO_FILTER, group: 'nope' }, null, 10)).toEqual({ rows: [], lastTaskId: null })
      expect(await s.facets()).toEqual({ groups: [{ group: 'G1', count: 3 }, { group: 'G2', count: 2 }], seats: ['A1', 'A2', 'A3', 'S9'] })
    })

    it('returns a task’s detail: moves in order, labels, decisions now and before, tallies', async () => {
      const s = store()
      const d = await s.taskDetail('t3')
      expect(d.task.moves.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4'])
      expect(d.task).toMatchObject({ id: 't3', group: 'G1', fileName: 'a.trace.jsonl', version: 0 })
      expect(d.gold).toBe('true')
      expect(d.decision).toMatchObject({ fitId, decision: 'act', spotCheck: true, k: [128, 256], why: { qhat: 0.9 }, reason: null })
      expect(d.previousDecision).toBeNull()
      expect(d.tallies?.seatIds).toEqual(['A1', 'A2', 'A3'])
      expect(hasUndefined(d)).toBe(false)
      const next = await s.saveFit({ ...FIT, parentFitId: fitId }, ANA)
      await saveDecisions(s, next.value.id, [decision('t3', 'defer', 0.4)], ANA)
      const after = await s.taskDetail('t3')
      expect([after.decision?.decision, after.previousDecision?.decision, after.previousDecision?.fitId]).toEqual(['defer', 'act', fitId])
      expect((await rejection(s.taskDetail('ghost'))).code).toBe('not_found')
    })

    it('draws uniformly among unlabeled tasks by the caller’s number, minus exclusions', async () => {
      const s = store()
      await s.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      expect(await s.drawUnlabeled({ at: 0, exclude: [], spotCheckOnly: false })).toEqual({ taskId: 't2', unlabeled: 4, randomLabels: 1 })
      expect((await s.drawUnlabeled({ at: 0.99, exclude: [], spotCheckOnly: false })).taskId).toBe('t5')
      expect((await s.drawUnlabeled({ at: 0.5, exclude: ['t2', 't3'], spotCheckOnly: false })).taskId).toBe('t5')
      expect(await s.drawUnlabeled({ at: 0.5, exclude: [], spotCheckOnly: true })).toMatchObject({ taskId: 't3', unlabeled: 1 })
      expect(await s.drawUnlabeled({ at: 0, exclude: ['t2', 't3', 't4', 't5'], spotCheckOnly: false })).toMatchObject({ taskId: null, unlabeled: 0 })
      expect((await rejection(s.drawUnlabeled({ at: 1, exclude: [], spotCheckOnly: false }))).code).toBe('bad_input')
    })
  })

  describe('reservations and recent labels', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2')])
    })

    it('lets one session hold a task; another sees who holds it; a resolve or expiry ends it', async () => {
      const s = store()
      const mine = await s.reserveTask('t1', ANA, 60_000)
      expect(mine.value.mine).toMatchObject({ taskId: 't1', reviewer: 'ana', sessionId: ANA.sessionId })
      expect(mine.value.heldBy).toBeNull()
      const other = await s.reserveTask('t1', BO, 60_000)
      expect(other.value).toEqual({ mine: null, heldBy: mine.value.mine, passedOver: null, renewed: false, released: [] })
      expect((await s.queuePage({ ...q({ decision: null }) })).rows.find((r) => r.taskId === 't1')?.reservedBy).toMatchObject({ reviewer: 'ana' })
      expect((await s.taskDetail('t1')).reservation?.reviewer).toBe('ana')
      const audits = (await s.auditTail(50)).filter((a) => a.action === 'task.reserve').length
      await s.reserveTask('t1', ANA, 60_000) // a renewal is not a new act
      expect((await s.auditTail(50)).filter((a) => a.action === 'task.reserve')).toHaveLength(audits)
      // BO's label is refused while ANA holds the task (suite-reservations.ts); ANA's ends the hold.
      expect(await rejection(s.recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO))).toMatchObject({ code: 'conflict', details: { heldBy: { reviewer: 'ana' } } })
      await s.recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      expect((await s.taskDetail('t1')).reservation).toBeNull()

      await s.reserveTask('t2', ANA, 1)
      await new Promise((r) => setTimeout(r, 10))
      expect((await s.reserveTask('t2', BO, 60_000)).value.mine?.reviewer).toBe('bo')
      expect((await s.releaseTask('t2', ANA)).value).toBe(false)
      expect((await s.releaseTask('t2', BO)).value).toBe(true)
      expect((await s.taskDetail('t2')).reservation).toBeNull()
      expect((await rejection(s.reserveTask('ghost', ANA, 1000))).code).toBe('not_found')
    })

    it('lists the newest label rows first, undo markers included, with liveness', async () => {
      const s = store()
      const a = await s.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      await s.recordLabel({ taskId: 't2', label: 'false', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      await s.undoLabel({ labelId: a.value.labelId, expectedVersion: 1 }, ANA)
      const recent = await s.recentLabels(10)
      expect(recent.map((l) => [l.taskId, l.label, l.live])).toEqual([['t1', null, false], ['t2', 'false', true], ['t1', 'true', false]])
      expect(recent[0].question).toBe('Is claim t1 true?')
      expect(await s.recentLabels(1)).toHaveLength(1)
    })
  })

  describe('fit history', () => {
    const store = useStore(makeStore)

    it('lists fits newest first, marks the current one, and rolls back by copying an earlier fit', async () => {
      const s = store()
      const first = await seed(s)
      const second = await s.saveFit({ ...FIT, hyperparameters: { b: 0.6 } }, ANA)
      expect((await s.currentFit())?.id).toBe(first) // not decided yet
      await saveDecisions(s, second.value.id, [decision('t1', 'act', -0.5)], ANA)
      const list = await s.listFits(10)
      expect(list.map((f) => [f.id, f.current])).toEqual([[second.value.id, true], [first, false]])
      expect(list[0]).not.toHaveProperty('certificate')
      expect((await s.getFit(first)).hyperparameters).toEqual({ b: 0.7 })

      const back = await s.rollbackFit(first, BO)
      expect(back.value).toMatchObject({ parentFitId: first, hyperparameters: { b: 0.7 }, decisionCount: 5, metrics: { rollbackOf: first } })
      expect((await s.currentFit())?.id).toBe(back.value.id)
      expect((await s.queuePage(q())).rows.map((r) => r.taskId)).toEqual(['t5', 't2', 't4', 't1'])
      expect((await s.auditTail(1))[0]).toMatchObject({ action: 'fit.rollback', reviewer: 'bo', details: { rollbackOf: first, replaced: second.value.id } })
      expect((await rejection(s.rollbackFit(back.value.id, BO))).code).toBe('conflict')
      const undecided = await s.saveFit(FIT, ANA)
      expect((await rejection(s.rollbackFit(undecided.value.id, BO))).code).toBe('conflict')
      expect((await rejection(s.rollbackFit('ghost', BO))).code).toBe('not_found')
      expect((await rejection(s.getFit('ghost'))).code).toBe('not_found')
    })
  })
}
