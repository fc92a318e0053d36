import type { Move, Trace } from '@shared/trace'

/**
 * One `arbiter.trace/1` JSONL line (no newline) with the fields in docs/formats.md's order — task,
 * question, candidates, gold, group, seats, moves; per move id, round, seat, force, answer, target,
 * confidence, text — so generated files diff cleanly against hand-written ones. Absent optional
 * fields are omitted; `gold: null` (unlabeled) is kept.
 */
export function toJsonl(trace: Trace): string {
  return JSON.stringify({
    task: trace.task,
    question: trace.question,
    candidates: trace.candidates,
    gold: trace.gold,
    group: trace.group,
    seats: trace.seats?.map((s) => ({ id: s.id, model: s.model })),
    moves: trace.moves.map(orderedMove)
  })
}

function orderedMove(m: Move): Move {
  return {
    id: m.id,
    round: m.round,
    seat: m.seat,
    force: m.force,
    answer: m.answer,
    target: m.target,
    confidence: m.confidence,
    text: m.text
  }
}
