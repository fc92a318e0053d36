/** One task: its detail (transcript, verdict, labels, flags) and the reservation of whoever is looking at it. */
import { z } from 'zod'
import type { JsonValue } from '../json'
import type { TaskState } from '../vocabularies'
import { command, defineCalls, id, query, returns } from './call'
import type { FlagView } from './flags'
import type { LabelView } from './labels'
import type { Verdict } from './task-verdict'

/** A type, not an interface: the store puts it in a conflict's JSON details as it is. */
export type Reservation = {
  taskId: string
  reviewer: string
  sessionId: string
  expiresAt: string
}

/**
 * Why "next" was not given a free task it asked for (`task.reserve` with `seenVersion`): it changed
 * since the caller's queue page was read (`labeledBy`: the latest live label's reviewer, null for
 * another change), or the caller flagged it — a flag hands a task to someone else.
 */
export type PassedOver = { reason: 'changed'; labeledBy: string | null } | { reason: 'flagged-by-you' }

export interface ReserveResult {
  /** The caller's reservation, or null when someone else holds a live one or the task was passed over. */
  mine: Reservation | null
  heldBy: Reservation | null
  /** Set when "next" asked (`seenVersion`) and the task is no longer one to offer; nothing was reserved. */
  passedOver: PassedOver | null
}

export interface TranscriptMove {
  id: string
  index: number
  round: number
  seat: string
  model: string | null
  force: 'propose' | 'vote' | 'challenge' | 'concede' | 'retract' | 'abstain'
  answer: string | null
  target: string | null
  /** The targeted move, resolved (null without a target). */
  targetSeat: string | null
  targetIndex: number | null
  /** What the move counts as (docs/engine.md §2): sign and candidate, or null for none. */
  endorsement: { sign: 1 | -1; candidate: string } | null
  /** Self-reported, any JSON value as given; null when the move has none. Never read by the engine. */
  confidence: JsonValue | null
  /** LLM output: render as text, never as HTML. */
  text: string | null
}

export interface TaskDetail {
  task: { id: string; question: string | null; group: string | null; candidates: string[]; createdAt: string; version: number; importFile: string }
  state: TaskState | null
  /** Hidden truth from the trace: shown only once the task has a human label. */
  gold: string | null
  moves: TranscriptMove[]
  /** null while blind (Calibrate hides the engine's verdict until the task is labeled), or before any fit. */
  verdict: Verdict | null
  blind: boolean
  labels: LabelView[]
  labelLog: LabelView[]
  reservation: Reservation | null
  /** Held by another session: a resolve is still possible but the console should say so. */
  reservedByOther: boolean
  /** Who flagged the task and why, oldest first (only the caller's own while the task is blind or sealed for them). */
  flags: FlagView[]
}

const taskIdOnly = z.object({ taskId: id }).strict()

export const taskCalls = defineCalls({
  'task.detail': query(z.object({ taskId: id, blind: z.boolean().default(false) }).strict(), returns<TaskDetail>(), ['tasks', 'labels', 'decisions', 'fits']),
  /**
   * Holds the task for the caller's session. With `seenVersion` (the version "next" read in the
   * queue page) it is a claim for "next": refused, not reserved, when the task changed since or the
   * caller flagged it (`passedOver`), so "next" never hands out a task labeled a moment ago.
   */
  'task.reserve': command(z.object({ taskId: id, seenVersion: z.number().int().nonnegative().optional() }).strict(), returns<ReserveResult>()),
  'task.release': command(taskIdOnly, returns<{ released: boolean }>()),
  /** The hold an adjudicator ended, or null when the task had none. */
  'task.releaseHold': command(taskIdOnly, returns<{ released: Reservation | null }>())
})
