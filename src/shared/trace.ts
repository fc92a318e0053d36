import type { JsonValue } from './json'

/**
 * The domain types of a council trace (docs/formats.md, `arbiter.trace/1`; docs/engine.md §1).
 * Plain data shared by io (readers validate into these), engine, service and renderer.
 * Unknown fields of a line are kept in `raw` by the readers for round-tripping.
 */
export const FORCES = ['propose', 'vote', 'challenge', 'concede', 'retract', 'abstain'] as const
export type Force = (typeof FORCES)[number]

export interface Move {
  id: string
  round: number
  seat: string
  force: Force
  /** propose / vote: a candidate. Ignored on other forces. */
  answer?: string
  /** challenge / concede: the id of a strictly earlier move of the same task. */
  target?: string
  /**
   * Self-reported, any JSON value (a number, "high", null, an object…); stored and shown as given,
   * never read by the engine (BDA Property 3).
   */
  confidence?: JsonValue
  text?: string
}

export interface SeatInfo {
  id: string
  model?: string
}

export interface Trace {
  task: string
  question?: string
  candidates: string[]
  /** Hidden truth when present (docs/engine.md §10); null / absent = unlabeled. */
  gold?: string | null
  group?: string
  seats?: SeatInfo[]
  moves: Move[]
}

export const TRACE_FORMAT = 'arbiter.trace/1'
export const LABELS_FORMAT = 'arbiter.labels/1'
export const DECISIONS_FORMAT = 'arbiter.decisions/1'
