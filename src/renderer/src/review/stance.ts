/** A move as the stance matrix reads it: what it counts as (docs/engine.md §2, computed by the engine). */
export interface StanceMove {
  round: number
  seat: string
  force: string
  endorsement: { sign: 1 | -1; candidate: string } | null
}

export interface StanceMatrix {
  /** Seats in order of their first move. */
  seats: string[]
  /** The rounds that have moves, ascending. */
  rounds: number[]
  /** stance[seat][j] = the seat's answer as it stands at rounds[j], or null when it has none. */
  stance: Record<string, (string | null)[]>
}

/**
 * Each seat's answer as it stands at each round: its latest +1 endorsement up to that round,
 * cleared by a retract — the engine's `social` reading (tallies.ts `writeCurrentAnswers`, docs/engine.md
 * §6 majority-final, §11). Moves of rounds ≤ t are replayed in list order at every cut, so a trace
 * whose rounds are out of order reads as the engine reads it.
 */
export function stanceMatrix(moves: readonly StanceMove[]): StanceMatrix {
  const seats: string[] = []
  for (const m of moves) if (!seats.includes(m.seat)) seats.push(m.seat)
  const rounds = [...new Set(moves.map((m) => m.round))].sort((a, b) => a - b)
  const stance: Record<string, (string | null)[]> = {}
  for (const s of seats) stance[s] = []
  for (const t of rounds) {
    const now = new Map<string, string | null>()
    for (const m of moves) {
      if (m.round > t) continue
      if (m.force === 'retract') now.set(m.seat, null)
      else if (m.endorsement !== null && m.endorsement.sign === 1) now.set(m.seat, m.endorsement.candidate)
    }
    for (const s of seats) stance[s].push(now.get(s) ?? null)
  }
  return { seats, rounds, stance }
}

/**
 * A bare vote: a vote with no text beyond its answer. Such moves collapse into one compact line
 * per round in the transcript.
 */
export function isBareVote(m: { force: string; answer: string | null; text: string | null }): boolean {
  if (m.force !== 'vote') return false
  const text = (m.text ?? '').trim()
  return text === '' || text === m.answer
}
