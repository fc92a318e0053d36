/**
 * Who may do what ("a login can act only as itself, blind stays blind, the calibration set stays
 * random") in the store, on both backends: a label import as the caller's own; undo by the
 * label's owner, a ruling by an adjudicator; the label-based filters under the sealed rule; the
 * server's record of Calibrate's draws behind a `random` label; the cap on a session's holds; an
 * adjudicator's release of another's hold. The store's clock is injected, so holds are exact.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Actor, SealedViewer, ImportLabelsInput, LabelImportRow, LabelSource, QueueQuery, Store, TaskFilter } from '../../../src/main/store'
import { ANA, BO, decision, importTasks, makeTask, NO_FILTER, rejection, saveDecisions, sha, withTallies } from './fixtures'
import type { MakeStore, StoreHandle } from './store-suite'

const CY: Actor = { reviewer: 'cy', sessionId: 'session-cy', shell: 'web' }
/** Ana in a second window: the same reviewer, another session. */
const ANA_2: Actor = { ...ANA, sessionId: 'session-ana-2' }
const MIN = 60_000
const TTL = 10 * MIN

const row = (taskId: string, label: string, reviewer: string, source: LabelSource = 'escalation'): LabelImportRow => ({
  taskId, label, source, reviewer, at: '2020-01-01T00:00:00.000Z', note: 'from a file'
})
const file = (labels: LabelImportRow[], asCaller: boolean, fromConsole = asCaller): ImportLabelsInput => ({
  fileName: 'x.labels.jsonl', sha256: sha(JSON.stringify(labels) + String(asCaller) + String(fromConsole)), kind: 'labels', labels, asCaller, fromConsole
})

export function defineSecurityTests(makeStore: MakeStore): void {
  describe('what each login may do', () => {
    let handle: StoreHandle | null = null
    let clock = Date.parse('2026-03-02T09:00:00.000Z')
    const advance = (ms: number) => (clock += ms)
    const s = (): Store => {
      if (handle === null) throw new Error('no store')
      return handle.store
    }
    const live = async (taskId: string) => (await s().liveLabels(taskId)).map((l) => [l.reviewer, l.label])
    const version = async (taskId: string) => (await s().getTaskSummary(taskId)).version
    const record = async (taskId: string, label: string, actor: Actor, opts: { source?: LabelSource; adjudicated?: boolean; requireDraw?: boolean } = {}) =>
      s().recordLabel({ taskId, label, source: opts.source ?? 'escalation', reviewer: actor.reviewer, expectedVersion: await version(taskId), adjudicated: opts.adjudicated, requireDraw: opts.requireDraw }, actor)
    const nothingWritten = async (write: () => Promise<unknown>) => {
      const before = { counts: await s().counts(), audit: (await s().auditTail(1000)).length, imports: (await s().listImports(100)).length }
      const e = await rejection(write())
      expect({ counts: await s().counts(), audit: (await s().auditTail(1000)).length, imports: (await s().listImports(100)).length }).toEqual(before)
      return e
    }

    beforeEach(async () => {
      clock = Date.parse('2026-03-02T09:00:00.000Z')
      handle = await makeStore({ now: () => new Date(clock) })
      await importTasks(s(), [1, 2, 3, 4].map((i) => withTallies(makeTask(`t${i}`))))
      const fit = await s().saveFit({ method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }, ANA)
      // The engine answers `true` everywhere.
      await saveDecisions(s(), fit.value.id, [1, 2, 3, 4].map((i) => decision(`t${i}`, 'defer', i / 10)), ANA)
    })
    afterEach(async () => {
      await handle?.cleanup()
      handle = null
    })

    describe('a label import as the caller’s own', () => {
      it('refuses a row naming another reviewer, or claiming a blind draw, and writes nothing', async () => {
        const forged = await nothingWritten(() => s().importLabels(file([row('t1', 'true', 'bo'), row('t2', 'false', 'ana')], true), BO))
        expect(forged).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/labels\[1\].*ana.*bo/), details: { taskId: 't2', index: 1, reviewer: 'ana' } })
        const random = await nothingWritten(() => s().importLabels(file([row('t1', 'true', 'bo', 'random')], true), BO))
        expect(random).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('random'), details: { taskId: 't1', index: 0 } })
      })

      it('respects another session’s live hold, naming the holder, and writes nothing', async () => {
        await s().reserveTask('t2', ANA, TTL)
        const held = await nothingWritten(() => s().importLabels(file([row('t1', 'true', 'bo'), row('t2', 'false', 'bo')], true), BO))
        expect(held).toMatchObject({ code: 'conflict', details: { taskId: 't2', reason: 'reserved', heldBy: { reviewer: 'ana' } } })
        // Once the hold expires the same file goes through.
        advance(TTL)
        expect((await s().importLabels(file([row('t1', 'true', 'bo'), row('t2', 'false', 'bo')], true), BO)).value.counts.labels).toBe(2)
      })

      it('supersedes the caller’s own live label, ends their own hold, and audits each label', async () => {
        const mine = (await record('t1', 'false', BO)).value.labelId
        await record('t1', 'true', ANA)
        await s().reserveTask('t2', BO, TTL)
        const imp = await s().importLabels(file([row('t1', 'true', 'bo'), row('t2', 'false', 'bo'), row('t2', 'true', 'bo')], true), BO)
        // One live label of bo per task: the file's last for t2, the import's for t1 (ana's stays).
        expect(await live('t1')).toEqual([['ana', 'true'], ['bo', 'true']])
        expect(await live('t2')).toEqual([['bo', 'true']])
        expect((await s().taskDetail('t2')).reservation).toBeNull()
        const t1 = (await s().liveLabels('t1')).find((l) => l.reviewer === 'bo')
        expect(t1).toMatchObject({ supersedes: mine, sessionId: BO.sessionId, at: '2020-01-01T00:00:00.000Z' })
        const audit = (await s().auditTail(20)).filter((a) => a.action === 'label.import' || a.action === 'labels.import')
        expect(audit.map((a) => [a.action, a.reviewer, a.target])).toEqual([
          ['label.import', 'bo', 't1'], ['label.import', 'bo', 't2'], ['label.import', 'bo', 't2'], ['labels.import', 'bo', imp.value.id]
        ])
        expect(audit[0].details).toEqual({ labelId: t1?.id, label: 'true', source: 'escalation', reviewer: 'bo', supersedes: mine, importId: imp.value.id })
        expect(audit[2].details).toMatchObject({ supersedes: audit[1].details.labelId })
      })

      it('takes no random label from any console; without a per-reviewer login, the file’s reviewers as written', async () => {
        const random = await nothingWritten(() => s().importLabels(file([row('t1', 'true', 'dee'), row('t2', 'true', 'dee', 'random')], false, true), ANA))
        expect(random).toMatchObject({ code: 'unauthorized', details: { taskId: 't2', index: 1 } })
        await s().importLabels(file([row('t1', 'true', 'dee')], false, true), ANA)
        expect(await live('t1')).toEqual([['dee', 'true']])
      })

      it('keeps the CLI’s import as it was: the file’s reviewers and sources, holds not consulted', async () => {
        await s().reserveTask('t1', ANA, TTL)
        await s().importLabels(file([row('t1', 'true', 'dee', 'random'), row('t1', 'false', 'dee')], false), { ...BO, shell: 'cli' })
        expect(await live('t1')).toEqual([['dee', 'true'], ['dee', 'false']])
        expect((await s().auditTail(5)).filter((a) => a.action === 'label.import')).toEqual([])
      })
    })

    describe('undo', () => {
      it('is only the label’s own reviewer’s; a ruling only an adjudicator’s', async () => {
        const ana = (await record('t1', 'true', ANA)).value.labelId
        const refused = await nothingWritten(async () => s().undoLabel({ labelId: ana, expectedVersion: await version('t1') }, BO))
        expect(refused).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('ana'), details: { labelId: ana, taskId: 't1' } })
        // Even an adjudicator may not undo a reviewer's own label.
        expect((await rejection(s().undoLabel({ labelId: ana, expectedVersion: await version('t1'), mayUndoRulings: true }, CY))).code).toBe('unauthorized')
        await s().undoLabel({ labelId: ana, expectedVersion: await version('t1') }, ANA_2)
        expect(await live('t1')).toEqual([])

        await record('t2', 'true', ANA)
        await record('t2', 'false', BO)
        const ruling = (await record('t2', 'false', CY, { adjudicated: true })).value.labelId
        for (const actor of [CY, ANA]) {
          const e = await nothingWritten(async () => s().undoLabel({ labelId: ruling, expectedVersion: await version('t2') }, actor))
          expect(e).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('adjudicator') })
        }
        await s().undoLabel({ labelId: ruling, expectedVersion: await version('t2'), mayUndoRulings: true }, BO)
        expect(await live('t2')).toEqual([['ana', 'true'], ['bo', 'false']])
      })
    })

    describe('the label-based filters under the sealed rule (N = 2)', () => {
      const q = (filter: Partial<TaskFilter>, sealedViewer: SealedViewer | null): QueueQuery => ({
        filter: { ...NO_FILTER, ...filter }, sort: 'age', direction: 'asc', offset: 0, limit: 50, sealedViewer
      })
      const asBo: SealedViewer = { reviewer: 'bo', reviewersPerTask: 2 }
      const asAna: SealedViewer = { reviewer: 'ana', reviewersPerTask: 2 }
      const taskIds = async (filter: Partial<TaskFilter>, viewer: SealedViewer | null) => {
        const page = await s().queuePage(q(filter, viewer))
        const ids = page.rows.map((r) => r.taskId)
        expect(page.total).toBe(ids.length)
        expect((await s().filteredTasks({ ...NO_FILTER, ...filter }, null, 100, viewer)).map((r) => r.taskId)).toEqual(ids)
        return ids
      }

      it('match no task whose others’ labels the viewer may not see yet: no candidate oracle', async () => {
        // Ana's blind label disagrees with the engine (`true`).
        await record('t1', 'false', ANA, { source: 'random' })
        expect(await taskIds({ candidate: 'false' }, null)).toEqual(['t1'])
        expect(await taskIds({ candidate: 'false' }, asAna)).toEqual(['t1'])
        for (const candidate of ['false', 'true']) expect(await taskIds({ candidate }, asBo)).not.toContain('t1')
        expect(await taskIds({ labelSource: 'random' }, asBo)).toEqual([])
        expect(await taskIds({ labelSource: 'random' }, asAna)).toEqual(['t1'])
        expect(await taskIds({ labelSource: 'random' }, { reviewer: 'bo', reviewersPerTask: 1 })).toEqual(['t1'])
        expect((await s().filteredLabels({ ...NO_FILTER, candidate: 'false' }, null, 100, asBo)).rows).toEqual([])
        expect((await rejection(s().queuePage(q({}, { reviewer: '', reviewersPerTask: 2 })))).code).toBe('bad_input')

        // Once bo labels it too (N reached, and they agree) the task is open to both.
        await record('t1', 'false', BO, { source: 'random' })
        expect(await taskIds({ labelSource: 'random' }, asBo)).toEqual(['t1'])
        expect(await taskIds({ candidate: 'false' }, asBo)).toEqual(['t1'])
      })
    })

    describe('Calibrate’s draws', () => {
      it('take a console’s random label only for a task drawn for that session', async () => {
        const notDrawn = await nothingWritten(() => record('t1', 'true', ANA, { source: 'random', requireDraw: true }))
        expect(notDrawn).toMatchObject({ code: 'unauthorized', details: { taskId: 't1', reason: 'not-drawn' } })
        expect((await s().recordDraw('t1', ANA)).value).toBe(true)
        expect((await s().recordDraw('t1', ANA)).value).toBe(false)
        // Drawn for another session (of the same reviewer, too) is not drawn for this one.
        for (const actor of [BO, ANA_2]) expect((await rejection(record('t1', 'true', actor, { source: 'random', requireDraw: true }))).code).toBe('unauthorized')
        expect((await record('t1', 'true', ANA, { source: 'random', requireDraw: true })).value.version).toBe(1)
        // An escalation needs no draw; the CLI's and the file's random labels are not asked for one.
        await record('t2', 'true', BO, { source: 'escalation', requireDraw: true })
        await record('t3', 'true', BO, { source: 'random' })
        expect((await rejection(s().recordDraw('no-such-task', ANA))).code).toBe('not_found')
        expect(await s().integrityCheck()).toEqual({ ok: true, messages: [] })
      })
    })

    describe('holds', () => {
      it('cap a session at two: a third releases its least recently reserved or renewed one', async () => {
        expect((await s().reserveTask('t1', ANA, TTL)).value.released).toEqual([])
        advance(MIN)
        expect((await s().reserveTask('t2', ANA, TTL)).value.released).toEqual([])
        advance(MIN)
        // The review screen's heartbeat renews the open task: t2 is now the older hold.
        expect((await s().reserveTask('t1', ANA, TTL)).value).toMatchObject({ renewed: true, released: [] })
        advance(MIN)
        expect((await s().reserveTask('t3', ANA, TTL)).value).toMatchObject({ mine: { taskId: 't3' }, released: ['t2'] })
        expect((await s().taskDetail('t2')).reservation).toBeNull()
        expect((await s().taskDetail('t1')).reservation?.sessionId).toBe(ANA.sessionId)
        const released = (await s().auditTail(10)).filter((a) => a.action === 'task.release')
        expect(released).toEqual([expect.objectContaining({ reviewer: 'ana', target: 't2', details: { reason: 'hold-cap', for: 't3' } })])
        // Another session of the same reviewer has its own two.
        expect((await s().reserveTask('t2', ANA_2, TTL)).value.released).toEqual([])
        expect((await s().reserveTask('t4', ANA_2, TTL)).value.released).toEqual([])
        expect((await s().taskDetail('t3')).reservation?.sessionId).toBe(ANA.sessionId)
      })

      it('keep the console’s next-task flow: the open task, "next" claimed, label, move on', async () => {
        const tasks = ['t1', 't2', 't3', 't4']
        expect((await s().reserveTask('t1', ANA, TTL)).value.released).toEqual([])
        for (let i = 0; i < tasks.length - 1; i++) {
          const [open, next] = [tasks[i], tasks[i + 1]]
          // "Next" claims the following task before the screen moves: two holds.
          expect((await s().reserveTask(next, ANA, TTL)).value).toMatchObject({ mine: { taskId: next }, released: [] })
          // The open task is labeled (its hold ends) or left (the screen releases it).
          if (i % 2 === 0) await record(open, 'true', ANA)
          else expect((await s().releaseTask(open, ANA)).value).toBe(true)
          // The next screen reserves its task again (a renewal).
          expect((await s().reserveTask(next, ANA, TTL)).value).toMatchObject({ renewed: true, released: [] })
          advance(MIN)
        }
        expect((await s().auditTail(100)).filter((a) => a.details.reason === 'hold-cap')).toEqual([])
      })

      it('an adjudicator’s release ends whoever’s live hold, audited naming the holder', async () => {
        const held = (await s().reserveTask('t1', BO, TTL)).value.mine
        const r = await s().releaseHold('t1', CY)
        expect(r.value).toEqual(held)
        expect(r.topics).toEqual(expect.arrayContaining(['tasks', 'audit']))
        expect((await s().taskDetail('t1')).reservation).toBeNull()
        expect((await s().auditTail(1))[0]).toMatchObject({ action: 'task.release', reviewer: 'cy', target: 't1', details: { heldBy: 'bo', sessionId: BO.sessionId } })
        expect((await s().releaseHold('t1', CY)).value).toBeNull()
        await s().reserveTask('t2', BO, TTL)
        advance(TTL)
        expect((await s().releaseHold('t2', CY)).value).toBeNull()
        expect((await rejection(s().releaseHold('nope', CY))).code).toBe('not_found')
      })
    })
  })
}
