import { createHash } from 'node:crypto'
import type { Actor, DecisionPage, MoveInput, SaveDecisionsResult, Store, TaskFilter, TaskInput, WriteResult } from '../../../src/main/store'
import { DecisionPageBuilder } from '../../../src/main/store/decision-page'
import { pageOfRows, type DecisionInput } from '../../helpers/decision-rows'
import { talliesOf } from '../../../src/main/service/import/task-input'

export const ANA: Actor = { reviewer: 'ana', sessionId: 'session-ana', shell: 'electron' }
export const BO: Actor = { reviewer: 'bo', sessionId: 'session-bo', shell: 'web' }

export function sha(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** A two-candidate task with three proposes and a challenge; `variant` changes its content. */
export function makeTask(id: string, opts: { group?: string | null; variant?: string; gold?: string | null } = {}): TaskInput {
  const question = `Is claim ${id} true?${opts.variant === undefined ? '' : ` (${opts.variant})`}`
  const moves: MoveInput[] = [
    { id: 'm1', round: 0, seat: 'A1', force: 'propose', answer: 'true', target: null, confidence: 0.8, text: 'yes', raw: null },
    { id: 'm2', round: 0, seat: 'A2', force: 'propose', answer: 'false', target: null, confidence: null, text: null, raw: { extra: 1 } },
    { id: 'm3', round: 0, seat: 'A3', force: 'propose', answer: 'true', target: null, confidence: null, text: null, raw: null },
    { id: 'm4', round: 1, seat: 'A2', force: 'challenge', answer: null, target: 'm1', confidence: null, text: 'no', raw: null }
  ]
  const content = { id, question, candidates: ['true', 'false'], gold: opts.gold ?? 'true', group: opts.group ?? 'G1', moves }
  return {
    id,
    question,
    candidates: ['true', 'false'],
    gold: opts.gold === undefined ? 'true' : opts.gold,
    group: opts.group === undefined ? 'G1' : opts.group,
    raw: { task: id, note: 'kept for round-trip' },
    contentSha256: sha(JSON.stringify(content)),
    moves,
    seats: [
      { id: 'A1', model: 'gemma-3-27b-it' },
      { id: 'A2', model: 'phi-4' }
    ]
  }
}

/** begin → one batch → publish; returns the import id. */
export async function importTasks(store: Store, tasks: TaskInput[], fileName = 'a.trace.jsonl', actor: Actor = ANA): Promise<string> {
  const begun = await store.beginImport({ fileName, sha256: sha(fileName + tasks.map((t) => t.contentSha256).join()), kind: 'traces' }, actor)
  await store.writeImportBatch(begun.value.id, { tasks })
  await store.publishImport(begun.value.id, actor)
  return begun.value.id
}

export function decision(taskId: string, kind: 'act' | 'defer', gap: number, extra: Partial<DecisionInput> = {}): DecisionInput {
  return {
    taskId,
    decision: kind,
    spotCheck: false,
    answer: 'true',
    posterior: { true: 0.7, false: 0.3 },
    stopRound: kind === 'act' ? 0 : null,
    gap,
    bound: [0.5, 0.6],
    disagreement: 0.25,
    ...extra
  }
}

/** Every value, at any depth, is defined (the contract: null, never undefined). */
export function hasUndefined(value: unknown): boolean {
  if (value === undefined) return true
  if (Array.isArray(value)) return value.some(hasUndefined)
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasUndefined)
  return false
}

export async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await p
  } catch (e) {
    return e as { code: string; message: string; details: Record<string, unknown> }
  }
  throw new Error('expected the promise to reject')
}

/** The engine's tallies of a fixture task, as the import pipeline computes them. */
export function withTallies(task: TaskInput): TaskInput {
  const trace = {
    task: task.id,
    candidates: task.candidates,
    moves: task.moves.map((m) => ({ id: m.id, round: m.round, seat: m.seat, force: m.force, ...(m.answer === null ? {} : { answer: m.answer }), ...(m.target === null ? {} : { target: m.target }) }))
  }
  return { ...task, tallies: talliesOf(trace) }
}

export const NO_FILTER: TaskFilter = { decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }

/**
 * Test setup, outside the contract: a fit's decisions as a decide writes them, one page then the
 * finish. The rows are checked and turned into a page on the way (pageOfRows), as a decide does.
 */
export async function saveDecisions(store: Store, fitId: string, rows: DecisionInput[], actor: Actor): Promise<WriteResult<SaveDecisionsResult>> {
  await store.appendDecisionPage(fitId, pageOfRows(rows))
  return store.finishDecisions(fitId, actor)
}

/** One page of rows (checked on the way, as by a decide). */
export async function appendDecisions(store: Store, fitId: string, rows: DecisionInput[]): Promise<WriteResult<number>> {
  return store.appendDecisionPage(fitId, pageOfRows(rows))
}

/** Rows as a page WITHOUT the rows' own checks: what reaches the store's check of a page unfiltered. */
export function rawPage(rows: DecisionInput[]): DecisionPage {
  const page = new DecisionPageBuilder(rows.length)
  for (const d of rows) {
    const keys = Object.keys(d.posterior)
    page.add({
      taskId: d.taskId, act: d.decision === 'act', spotCheck: d.spotCheck, answer: d.answer, reason: d.reason ?? null,
      stopRound: d.stopRound, gap: d.gap, disagreement: d.disagreement, candidates: keys, posterior: keys.map((k) => d.posterior[k]),
      bound: d.bound, k: d.k ?? null, why: d.why ?? null
    })
  }
  return page.finish()
}
