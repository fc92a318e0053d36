/**
 * A task's moves as stored: one JSON array per task, in file order (see SQLite migration 0003 for
 * why). Each move is an object; its null fields are left out when written and read back as null,
 * so an empty `answer`, `target`, `confidence`, `text` or `raw` costs nothing.
 */
import type { Force } from '../../shared/trace'
import type { JsonObject, JsonValue, MoveInput } from './contract'

type PackedMove = {
  id: string
  round: number
  seat: string
  force: Force
  answer?: string | null
  target?: string | null
  confidence?: JsonValue
  text?: string | null
  raw?: JsonObject | null
}

export function packMoves(moves: readonly MoveInput[]): string {
  const out: PackedMove[] = new Array<PackedMove>(moves.length)
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i]
    const p: PackedMove = { id: m.id, round: m.round, seat: m.seat, force: m.force }
    if (m.answer !== null) p.answer = m.answer
    if (m.target !== null) p.target = m.target
    if (m.confidence !== null) p.confidence = m.confidence
    if (m.text !== null) p.text = m.text
    if (m.raw !== null) p.raw = m.raw
    out[i] = p
  }
  return JSON.stringify(out)
}

/** The stored array back as the store's moves (written by packMoves or by SQLite migration 0003). */
export function unpackMoves(json: string): MoveInput[] {
  return (JSON.parse(json) as PackedMove[]).map((p) => ({
    id: p.id,
    round: p.round,
    seat: p.seat,
    force: p.force,
    answer: p.answer ?? null,
    target: p.target ?? null,
    confidence: p.confidence ?? null,
    text: p.text ?? null,
    raw: p.raw ?? null
  }))
}
