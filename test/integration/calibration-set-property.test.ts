/**
 * The calibration set's integrity as a property (SQLite): whatever sequence of calls logins that are
 * not adjudicators make — draws, skips, blind and escalation labels, undo, flags, label imports,
 * settings, the clock running past a draw's lifetime — after every call
 * - every `random` label in C (the tasks whose effective label is a blind one) is a label its
 *   reviewer gave on a task the server drew for that login, and
 * - a task leaves C (or changes its blind label) only through its labeler's replacement on the same
 *   draw — an adjudication would be the other way, and none of these logins may rule.
 * Each run starts from a copy of one seeded database; the runs are few so the test takes seconds.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CalibrateDrawResult, CallContext, ResolveResult, UploadResult } from '../../src/shared/api'
import { dispatch } from '../../src/main/host/dispatch'
import { createService } from '../../src/main/service'
import { cleanCouncil } from '../../src/main/sim'
import { openStore, type Store } from '../../src/main/store'
import { seedTraces } from '../helpers/seed'

const TASKS = 6
const REVIEWERS = ['alice', 'bob', 'carol'] as const
const RUNS = 25

type Who = { reviewer: (typeof REVIEWERS)[number]; tab: 0 | 1 }
type Cmd =
  | { kind: 'draw'; who: Who; spot: boolean; moveOn: boolean }
  | { kind: 'skip'; who: Who; task: number | 'open' }
  | { kind: 'label'; who: Who; task: number | 'open' | 'inC'; pick: number; source: 'random' | 'escalation' }
  | { kind: 'undo'; who: Who; label: number; inC: boolean }
  | { kind: 'undoLast'; who: Who; source: 'random' | 'escalation' }
  | { kind: 'flag'; who: Who; task: number }
  | { kind: 'import'; who: Who; task: number; pick: number; source: 'random' | 'escalation' }
  | { kind: 'settings'; who: Who; perTask: number; adjudicator: boolean }
  | { kind: 'adjudicate'; who: Who; task: number; pick: number }
  | { kind: 'wait'; minutes: number }

// Mostly each login's first window: a second one now and then (a draw is handed to the latest to ask).
const who = fc.record({ reviewer: fc.constantFrom(...REVIEWERS), tab: fc.oneof({ weight: 4, arbitrary: fc.constant(0 as const) }, { weight: 1, arbitrary: fc.constant(1 as const) }) })
const task = fc.integer({ min: 0, max: TASKS - 1 })
const pick = fc.integer({ min: 0, max: 3 })
const source = fc.constantFrom('random' as const, 'escalation' as const)
// Mostly the login's own draw, or a task of C (where an attack would land), now and then any task.
const labelTask = fc.oneof({ weight: 3, arbitrary: fc.constant('open' as const) }, { weight: 3, arbitrary: fc.constant('inC' as const) }, { weight: 1, arbitrary: task })
// An import runs in a worker thread (the slowest call by far): rare, so the runs stay quick.
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('draw' as const), who, spot: fc.boolean(), moveOn: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('skip' as const), who, task: fc.oneof(fc.constant('open' as const), task) }) },
  { weight: 18, arbitrary: fc.record({ kind: fc.constant('label' as const), who, task: labelTask, pick, source }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('undo' as const), who, label: fc.nat(20), inC: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('undoLast' as const), who, source }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('flag' as const), who, task }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('import' as const), who, task, pick, source }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settings' as const), who, perTask: fc.integer({ min: 1, max: 3 }), adjudicator: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('adjudicate' as const), who, task, pick }) },
  // A draw lives 30 minutes: waits on either side of it.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), minutes: fc.constantFrom(1, 29, 31) }) }
)

/** C: task → its blind effective label (id and reviewer). */
async function calibrationSet(store: Store): Promise<Map<string, { labelId: string; reviewer: string }>> {
  const c = new Map<string, { labelId: string; reviewer: string }>()
  for (const e of await store.effectiveLabels()) if (e.source === 'random') c.set(e.taskId, { labelId: e.labelId, reviewer: e.reviewer })
  return c
}

describe('the calibration set under any sequence of non-adjudicators’ calls (SQLite)', () => {
  let dir: string
  let template: string
  let ids: string[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbiter-calset-property-'))
    template = join(dir, 'template.db')
    const store = await openStore(template)
    const traces = [...cleanCouncil({ tasks: TASKS, seed: 11 })]
    await seedTraces(store, traces)
    ids = traces.map((t) => t.task).sort()
    // A fit, so that the spot-check stream exists to draw from.
    const service = await createService({ store, dbLocation: template, nativeBinding: null, shell: 'web' })
    const fitted = await dispatch(service.handlers, 'fits.run', {}, service.context())
    expect(fitted.ok).toBe(true)
    await service.close()
  }, 60_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  let run = 0
  it('keeps every blind label in C a drawn one, and lets a task leave C only through its labeler’s replacement on the same draw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 8, maxLength: 20 }), async (cmds) => {
        const dbLocation = join(dir, `run-${++run}.db`)
        copyFileSync(template, dbLocation)
        let clock = Date.parse('2026-03-02T09:00:00.000Z')
        const store = await openStore(dbLocation, { now: () => new Date(clock) })
        const service = await createService({ store, dbLocation, nativeBinding: null, shell: 'web' })
        const ctx = (w: Who): CallContext => ({ ...service.context(), reviewer: w.reviewer, sessionId: `window-${w.reviewer}-${w.tab}`, reviewerFromToken: true })
        const call = (method: string, args: unknown, w: Who) => dispatch(service.handlers, method, args, ctx(w))
        // What the server drew for each login (from its own answers), and the label ids given.
        const drawn = new Set<string>()
        const openOf = new Map<string, string>()
        const labelIds: { labelId: string; taskId: string }[] = []
        const noteDraw = (w: Who, r: { ok: boolean; value?: unknown }) => {
          if (!r.ok) return
          const t = (r.value as CalibrateDrawResult).taskId
          if (t === null) return
          openOf.set(w.reviewer, t)
          drawn.add(`${w.reviewer}|${t}`)
        }
        try {
          await call('engine.updateSettings', { patch: { autoRefit: false } }, { reviewer: 'alice', tab: 0 })
          for (const c of cmds) {
            const before = await calibrationSet(store)
            let replacedBy: { reviewer: string; taskId: string } | null = null
            // 'inC': a task of the calibration set now — where an attack on it would land.
            const inC = [...before.keys()]
            const taskOf = (t: number | 'open' | 'inC', w: Who) =>
              t === 'open' ? (openOf.get(w.reviewer) ?? ids[0]) : t === 'inC' ? (inC[(w.tab + w.reviewer.length) % Math.max(1, inC.length)] ?? ids[0]) : ids[t]
            const versionOf = async (taskId: string) => (await store.taskDetail(taskId)).task.version
            const candidatesOf = async (taskId: string) => (await store.taskDetail(taskId)).task.candidates
            switch (c.kind) {
              case 'draw':
                // Moving on names the task left; a plain ask names nothing.
                noteDraw(c.who, await call('calibrate.draw', c.moveOn ? { spotCheckOnly: c.spot, after: openOf.get(c.who.reviewer) ?? null } : { spotCheckOnly: c.spot }, c.who))
                break
              case 'skip':
                noteDraw(c.who, await call('calibrate.skip', { taskId: taskOf(c.task, c.who) }, c.who))
                break
              case 'label': {
                const taskId = taskOf(c.task, c.who)
                const cands = await candidatesOf(taskId)
                const r = await call('labels.resolve', { taskId, label: cands[c.pick % cands.length], expectedVersion: await versionOf(taskId), source: c.source }, c.who)
                if (r.ok) {
                  const v = r.value as ResolveResult
                  labelIds.push({ labelId: v.labelId, taskId })
                  if (v.source === 'random') replacedBy = { reviewer: c.who.reviewer, taskId }
                }
                break
              }
              case 'undo': {
                const pool = c.inC ? [...before.entries()].map(([taskId, x]) => ({ labelId: x.labelId, taskId })) : labelIds
                const l = pool[c.label % Math.max(1, pool.length)]
                if (l !== undefined) await call('labels.undo', { labelId: l.labelId, expectedVersion: await versionOf(l.taskId) }, c.who)
                break
              }
              case 'undoLast':
                await call('labels.undoLast', { source: c.source }, c.who)
                break
              case 'flag':
                await call('flags.add', { taskId: ids[c.task], reason: 'property: doubt' }, c.who)
                break
              case 'import': {
                const cands = await candidatesOf(ids[c.task])
                const line = JSON.stringify({ format: 'arbiter.labels/1', task: ids[c.task], label: cands[c.pick % cands.length], source: c.source, reviewer: c.who.reviewer, at: '2026-03-01T00:00:00Z', note: null })
                const up = await call('imports.upload', { uploadId: null, fileName: 'mine.labels.jsonl', offset: 0, chunk: Buffer.from(`${line}\n`) }, c.who)
                if (up.ok) await call('imports.run', { source: { kind: 'upload', uploadId: (up.value as UploadResult).uploadId }, kind: 'labels' }, c.who)
                break
              }
              case 'settings':
                await call('team.updateSettings', { patch: { reviewersPerTask: c.perTask, ...(c.adjudicator ? { adjudicators: [c.who.reviewer] } : {}) } }, c.who)
                break
              case 'adjudicate': {
                const cands = await candidatesOf(ids[c.task])
                await call('adjudicate.resolve', { taskId: ids[c.task], label: cands[c.pick % cands.length], expectedVersion: await versionOf(ids[c.task]) }, c.who)
                break
              }
              case 'wait':
                clock += c.minutes * 60_000
                break
            }
            const after = await calibrationSet(store)
            for (const [taskId, l] of after) {
              expect(drawn.has(`${l.reviewer}|${taskId}`), `${taskId}: ${l.reviewer}'s blind label on a task not drawn for them (${c.kind})`).toBe(true)
              expect((await store.liveLabels(taskId)).find((x) => x.id === l.labelId)?.adjudicated).toBe(false)
            }
            for (const [taskId, l] of before) {
              const now = after.get(taskId)
              if (now !== undefined && now.labelId === l.labelId) continue
              // Left C, or its blind label changed: only its labeler's replacement on the same draw.
              expect(replacedBy, `${taskId} left C through ${JSON.stringify(c)}`).toEqual({ reviewer: l.reviewer, taskId })
              expect(now?.reviewer).toBe(l.reviewer)
            }
          }
        } finally {
          await service.close()
          rmSync(dbLocation, { force: true })
        }
      }),
      { numRuns: RUNS, seed: 42, endOnFailure: true }
    )
  }, 240_000)
})
