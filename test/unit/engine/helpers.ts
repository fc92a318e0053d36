import type { Force, Move, Trace } from '@shared/trace'

/** A move literal: m('m1', 0, 'A', 'propose', { answer: 'x' }). */
export function m(id: string, round: number, seat: string, force: Force, extra: Partial<Move> = {}): Move {
  return { id, round, seat, force, ...extra }
}

export function trace(task: string, candidates: string[], moves: Move[], gold: string | null = null): Trace {
  return { task, candidates, gold, moves }
}

/** One round-0 propose per (seat, answer) pair, in order. */
export function votes(task: string, candidates: string[], answers: [string, string][], gold: string | null = null): Trace {
  return trace(task, candidates, answers.map(([seat, a], i) => m(`m${i}`, 0, seat, 'propose', { answer: a })), gold)
}

/** mulberry32: a small seeded PRNG for test generators. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A simulated council, K = 2 (or more), `rounds` rounds: round 0 every seat proposes (correct with
 * its reliability; `adversary` seats always propose a wrong answer); in later rounds each seat
 * either re-proposes, concedes to a seat holding its belief, or challenges a seat that does not.
 */
export function council(opts: {
  n: number; seed: number; reliabilities: number[]; adversaries?: number[]; K?: number; rounds?: number; prefix?: string
}): Trace[] {
  const K = opts.K ?? 2
  const rounds = opts.rounds ?? 3
  const adv = new Set(opts.adversaries ?? [])
  const rand = rng(opts.seed)
  const cands = Array.from({ length: K }, (_, i) => `c${i}`)
  const seats = opts.reliabilities.map((_, i) => `S${i + 1}`)
  const out: Trace[] = []
  for (let n = 0; n < opts.n; n++) {
    const gold = Math.floor(rand() * K)
    const wrong = (): number => (gold + 1 + Math.floor(rand() * (K - 1))) % K
    const moves: Move[] = []
    const last: { id: string; answer: number }[] = []
    const belief = seats.map((_, i) => (adv.has(i) ? wrong() : rand() < opts.reliabilities[i] ? gold : wrong()))
    seats.forEach((seat, i) => {
      const id = `m${moves.length}`
      moves.push(m(id, 0, seat, 'propose', { answer: cands[belief[i]], confidence: rand(), text: `seat ${seat} thinks ${cands[belief[i]]}` }))
      last[i] = { id, answer: belief[i] }
    })
    for (let r = 1; r < rounds; r++) {
      seats.forEach((seat, i) => {
        const id = `m${moves.length}`
        const other = (i + 1 + Math.floor(rand() * (seats.length - 1))) % seats.length
        const u = rand()
        if (u < 0.4) moves.push(m(id, r, seat, 'propose', { answer: cands[belief[i]] }))
        else if (last[other].answer === belief[i]) moves.push(m(id, r, seat, 'concede', { target: last[other].id }))
        else moves.push(m(id, r, seat, 'challenge', { target: last[other].id }))
        if (moves[moves.length - 1].force === 'propose') last[i] = { id, answer: belief[i] }
      })
    }
    out.push({ task: `${opts.prefix ?? 't'}${n}`, candidates: cands, gold: cands[gold], moves })
  }
  return out
}
