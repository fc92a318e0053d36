/**
 * An independent statement of what a reader may accept (docs/engine.md §1, docs/formats.md), written from
 * the docs rather than from the readers' code, plus what the store needs to keep a value unchanged.
 * Each returns null, or what is wrong.
 */
import type { Trace } from '../../../src/shared/trace'
import type { Label } from '../../../src/main/io'

const FORCES = new Set(['propose', 'vote', 'challenge', 'concede', 'retract', 'abstain'])
const isId = (s: unknown): boolean => typeof s === 'string' && s.length > 0 && s.length <= 512
const wellFormed = (s: string): boolean => !/\p{Cs}/u.test(s)

export function traceProblem(t: Trace): string | null {
  if (!isId(t.task) || !wellFormed(t.task)) return `task id ${JSON.stringify(t.task)}`
  if (t.candidates.length < 2 || new Set(t.candidates).size !== t.candidates.length) return 'candidates not ≥ 2 distinct'
  if (t.gold != null && !t.candidates.includes(t.gold)) return 'gold not a candidate'
  const ids = new Map<string, number>()
  let round = 0
  for (const [i, m] of t.moves.entries()) {
    if (!isId(m.id) || ids.has(m.id)) return `move id ${m.id}`
    if (!isId(m.seat)) return `seat ${m.seat}`
    if (!Number.isSafeInteger(m.round) || m.round < round) return `round ${m.round}`
    if (!FORCES.has(m.force)) return `force ${m.force}`
    if ((m.force === 'propose' || m.force === 'vote') && !t.candidates.includes(m.answer as string)) return `answer ${m.answer}`
    if ((m.force === 'challenge' || m.force === 'concede') && !((ids.get(m.target as string) ?? i) < i)) return `target ${m.target}`
    // Any JSON value (docs/engine.md §1), but one the store keeps unchanged.
    if (m.confidence !== undefined && rawProblem(m.confidence) !== null) return 'confidence'
    ids.set(m.id, i)
    round = m.round
  }
  for (const s of t.seats ?? []) if (!isId(s.id)) return `seat id ${s.id}`
  return null
}

/** The store keeps a raw object as JSON (≤ 64 levels, finite numbers, well-formed text): it must read back unchanged. */
export function rawProblem(raw: unknown, depth = 0): string | null {
  if (depth > 64) return 'nested deeper than the store keeps'
  if (typeof raw === 'number') return Number.isFinite(raw) ? null : 'a non-finite number'
  if (typeof raw === 'string') return wellFormed(raw) ? null : 'an unpaired surrogate'
  if (raw === null || typeof raw !== 'object') return null
  for (const v of Object.values(raw)) {
    const p = rawProblem(v, depth + 1)
    if (p !== null) return p
  }
  return null
}

export function labelProblem(l: Label): string | null {
  if (!isId(l.reviewer)) return `reviewer ${JSON.stringify(l.reviewer)}`
  if (l.source !== 'random' && l.source !== 'escalation') return `source ${l.source}`
  const ms = Date.parse(l.at)
  if (Number.isNaN(ms)) return `time ${l.at}`
  if (!/^\d{4}-/.test(new Date(ms).toISOString())) return `time ${l.at} leaves 4-digit years`
  return null
}
