import { contentSha256 } from '../../io'
import type { Trace } from '../../../shared/trace'
import { buildTallies, SeatIndex, socialAt, type TaskTallies } from '../../engine'
import type { JsonObject, MoveInput, TallyInput, TaskInput } from '../../store'

const MOVE_FIELDS = new Set(['id', 'round', 'seat', 'force', 'answer', 'target', 'confidence', 'text'])

/** One index for every import: only the seat ids are stored, so the numbering never matters. */
const seats = new SeatIndex()


export { contentSha256 }

/** The engine's tallies of a trace, as the store keeps them (docs/engine.md §2). */
export function talliesOf(trace: Trace): TallyInput {
  const t: TaskTallies = buildTallies(trace, seats, null)
  const social = socialAt(t)
  let p1 = 0
  for (let g = 0; g < t.K; g++) if (social[g] > p1) p1 = social[g]
  return { K: t.K, seatIds: [...t.seatIds], rounds: [...t.rounds], counts: t.counts, vote0: t.vote0, socialP1: p1 }
}

/** A move's unknown fields (kept for round-tripping), or null — the common case, found without allocating. */
function moveRaw(raw: unknown): JsonObject | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null
  let extra: JsonObject | null = null
  const obj = raw as Record<string, unknown>
  for (const k in obj) {
    if (MOVE_FIELDS.has(k)) continue
    extra ??= {}
    // Defined, not assigned: `extra.__proto__ = v` would set the object's prototype instead of
    // keeping the file's "__proto__" key as the plain data it is.
    Object.defineProperty(extra, k, { value: obj[k], enumerable: true, writable: true, configurable: true })
  }
  return extra
}

/**
 * A validated trace and its parsed line → the store's TaskInput. `raw` keeps the line's unknown
 * fields for round-tripping (docs/formats.md) and nothing else: each known field has its column or
 * table (the moves their rows, each with its own unknown fields), and repeating them in `raw` was
 * the largest part of a small task's row — a label CSV's one-row task stored a 78-byte copy of its
 * id, candidates and gold (the database's growth bound, docs/reliability.md).
 */
export function taskInputOf(trace: Trace, raw: Record<string, unknown>, sha = contentSha256(raw)): TaskInput {
  const rawMoves = Array.isArray(raw.moves) ? (raw.moves as unknown[]) : []
  const { moves: _moves, format: _format, task: _task, question: _question, candidates: _candidates, gold: _gold, group: _group, seats: _seats, ...head } = raw
  const moves: MoveInput[] = trace.moves.map((m, i) => ({
    id: m.id,
    round: m.round,
    seat: m.seat,
    force: m.force,
    answer: m.answer ?? null,
    target: m.target ?? null,
    confidence: m.confidence ?? null,
    text: m.text ?? null,
    raw: moveRaw(rawMoves[i])
  }))
  return {
    id: trace.task,
    question: trace.question ?? null,
    candidates: trace.candidates,
    gold: trace.gold ?? null,
    group: trace.group ?? null,
    raw: head as JsonObject,
    contentSha256: sha,
    moves,
    seats: (trace.seats ?? []).map((s) => ({ id: s.id, model: s.model ?? null })),
    tallies: talliesOf(trace)
  }
}
