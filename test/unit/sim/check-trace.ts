import type { Trace } from '@shared/trace'

/**
 * A compact, independent reading of docs/engine.md §1 (validity) and §2 (endorsements) for the
 * simulator's tests; the real reader lives in src/main/io. Kept separate from the generator's own
 * bookkeeping so a bug there cannot hide itself.
 */

export interface Endorsement {
  moveId: string
  seat: string
  round: number
  sign: 1 | -1
  cand: string
}

const FORCES = new Set(['propose', 'vote', 'challenge', 'concede', 'retract', 'abstain'])

/** docs/engine.md §2: each move's signed endorsement, or null. Assumes a valid trace. */
export function endorsements(trace: Trace): (Endorsement | null)[] {
  const byId = new Map<string, Endorsement | null>()
  const seatOf = new Map<string, string>()
  const lastPlus = new Map<string, string>()
  return trace.moves.map((m) => {
    let e: Endorsement | null = null
    const base = { moveId: m.id, seat: m.seat, round: m.round }
    if ((m.force === 'propose' || m.force === 'vote') && m.answer !== undefined) e = { ...base, sign: 1, cand: m.answer }
    else if (m.force === 'challenge' || m.force === 'concede') {
      const t = byId.get(m.target ?? '')
      if (t && m.force === 'challenge') e = { ...base, sign: t.sign === 1 ? -1 : 1, cand: t.cand }
      if (t && m.force === 'concede' && seatOf.get(m.target ?? '') !== m.seat) e = { ...base, sign: t.sign, cand: t.cand }
    } else if (m.force === 'retract') {
      const a = lastPlus.get(m.seat)
      if (a !== undefined) e = { ...base, sign: -1, cand: a }
    }
    byId.set(m.id, e)
    seatOf.set(m.id, m.seat)
    if (e && e.sign === 1) lastPlus.set(m.seat, e.cand)
    return e
  })
}

/** Whether an endorsement is consistent with hypothesis g (docs/engine.md §2's c_i(g)). */
export function consistent(e: Endorsement, g: string): boolean {
  return e.sign === 1 ? e.cand === g : e.cand !== g
}

/** Every rule of docs/engine.md §1 a trace can break; [] when the file is valid. */
export function traceErrors(traces: Iterable<Trace>): string[] {
  const errors: string[] = []
  const tasks = new Set<string>()
  for (const t of traces) {
    const err = (rule: string, move?: string): void => {
      errors.push(`${t.task}${move ? ` ${move}` : ''}: ${rule}`)
    }
    if (typeof t.task !== 'string' || t.task === '') err('task id missing')
    if (tasks.has(t.task)) err('duplicate task id')
    tasks.add(t.task)
    const cands = new Set(t.candidates)
    if (!Array.isArray(t.candidates) || t.candidates.length < 2 || cands.size !== t.candidates.length || t.candidates.some((c) => typeof c !== 'string'))
      err('candidates: need ≥ 2 distinct strings')
    if (t.gold !== undefined && t.gold !== null && !cands.has(t.gold)) err('gold not a candidate')
    const seen = new Set<string>()
    const ends = endorsements(t)
    const endorsed = new Map<string, boolean>()
    let lastRound = 0
    t.moves.forEach((m, j) => {
      if (typeof m.id !== 'string' || seen.has(m.id)) err('duplicate or missing move id', m.id)
      if (!Number.isInteger(m.round) || m.round < 0) err('round not an integer ≥ 0', m.id)
      if (m.round < lastRound) err('rounds decreasing', m.id)
      lastRound = m.round
      if (typeof m.seat !== 'string') err('seat missing', m.id)
      if (!FORCES.has(m.force)) err(`unknown force ${m.force}`, m.id)
      if ((m.force === 'propose' || m.force === 'vote') && (m.answer === undefined || !cands.has(m.answer))) err('answer missing or not a candidate', m.id)
      if (m.force === 'challenge' || m.force === 'concede') {
        if (m.target === undefined || !seen.has(m.target)) err('target unknown or not strictly earlier', m.id)
        else if (!endorsed.get(m.target)) err('target carries no endorsement', m.id)
      }
      seen.add(m.id)
      endorsed.set(m.id, ends[j] !== null)
    })
  }
  return errors
}
