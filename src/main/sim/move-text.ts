import { F_ABSTAIN, F_CHALLENGE, F_CONCEDE, F_PROPOSE, F_RETRACT, F_VOTE } from './debate'
import type { Rng } from './prng'

/**
 * Debate prose for simulated moves: templated sentences picked by the text stream, naming the
 * answer and, for challenges and concessions, the move and seat they respond to. Pure decoration —
 * the engine never reads `text` (BDA Property 3) — but it makes the demo read like a council.
 */

/** A justification for candidate c (lowercase, no final period), from the group's question maker. */
export type ArgueFn = (c: number) => string

export interface MoveTextInput {
  force: number
  round: number
  /** The move expresses a change of mind. */
  changed: boolean
  /** Endorsed candidate: the answer of a propose / vote, the retracted answer; −1 for none. */
  answer: number
  /** The seat's current answer before this move; −1 for none. */
  mine: number
  target: { id: string; seat: string; cand: number; sign: number } | null
  candidates: string[]
  argue: ArgueFn | undefined
}

const GENERIC_WHY = [
  'it is the only option consistent with every condition in the question',
  'the key premise supports this reading and not the others',
  'working through it step by step leads there',
  'the alternatives each rely on an assumption the question does not make'
]
const GENERIC_AGAINST = [
  'the argument skips a step that matters here',
  'that reading ignores a condition stated in the question',
  'the reasoning does not actually support that conclusion',
  'it rests on an assumption the question does not make'
]
const DOUBTS = [
  'I can no longer justify it after the last round',
  'on a second pass my argument has a gap',
  'the objections raised are stronger than I first thought',
  'I was too quick; the evidence is weaker than I claimed'
]

const PROPOSE = ['I propose {A}: {WHY}.', 'My answer is {A}, because {WHY}.', 'I would answer {A}. {WHY_CAP}.', 'Answer: {A}. Reasoning: {WHY}.']
const REPROPOSE = ['On reflection I change my answer to {A}: {WHY}.', 'Revising my answer to {A}; {WHY}.', 'I now think the answer is {A}, since {WHY}.']
const VOTE = ['I keep my answer, {A}: {WHY}.', 'Still {A} after this round — {WHY}.', 'My vote stays on {A}; nothing raised so far changes that.', 'Reaffirming {A}: {WHY}.']
const CHALLENGE = [
  'I challenge {T}: {TS} says {Y}, but {WHY}.',
  '{TS}\'s answer {Y} ({T}) does not hold up — {WHY}.',
  'Disagree with {T}. {Y} is not right here: {WHY}.'
]
const DEFEND = ['{TS} challenged {Y} in {T}, but {WHY}.', 'The objection in {T} misses the point: {Y} stands, because {WHY}.']
const AGREE = ['I agree with {TS} ({T}): {Y}.', 'Concur with {T} — {Y} is right, {WHY}.', '{TS} is right in {T}; {Y}.']
const SWITCH = [
  '{TS}\'s argument in {T} convinces me; I now agree on {Y}.',
  'Conceding to {T}: {Y}. I had missed that {WHY}.',
  'After {TS}\'s point in {T}, I switch to {Y}.'
]
const ACCEPT_OBJECTION = ['I accept {TS}\'s objection to {Y} in {T}.', '{TS} is right to doubt {Y} ({T}).']
const RETRACT = ['I retract my earlier answer, {A}: {DOUBT}.', 'Withdrawing {A} — {DOUBT}.', 'I take back {A}; {DOUBT}.']
const ABSTAIN = [
  'I cannot settle this with the information given; abstaining.',
  'Abstaining this round: I am too uncertain to commit to an answer.',
  'No answer from me here — the question is outside what I can verify.'
]

export function moveText(rng: Rng, m: MoveTextInput): string {
  const label = (c: number): string => (c >= 0 ? m.candidates[c] : '')
  const why = (c: number, against = false): string =>
    c >= 0 && m.argue ? m.argue(c) : rng.pick(against ? GENERIC_AGAINST : GENERIC_WHY)
  const t = m.target
  let template: string
  let reason: string
  switch (m.force) {
    case F_PROPOSE:
      template = rng.pick(m.changed ? REPROPOSE : PROPOSE)
      reason = why(m.answer)
      break
    case F_VOTE:
      template = rng.pick(VOTE)
      reason = why(m.answer)
      break
    case F_CHALLENGE:
      if (t !== null && t.sign === -1) {
        template = rng.pick(DEFEND)
        reason = why(t.cand)
      } else {
        template = rng.pick(CHALLENGE)
        // Argue from one's own answer when it is a different one; otherwise against theirs.
        reason = m.mine >= 0 && t !== null && m.mine !== t.cand ? why(m.mine) : why(-1, true)
      }
      break
    case F_CONCEDE:
      template = rng.pick(t !== null && t.sign === -1 ? ACCEPT_OBJECTION : m.changed ? SWITCH : AGREE)
      reason = t !== null ? why(t.cand) : why(-1)
      break
    case F_RETRACT:
      template = rng.pick(RETRACT)
      reason = rng.pick(DOUBTS)
      break
    case F_ABSTAIN:
      return rng.pick(ABSTAIN)
    default:
      throw new RangeError(`sim: unknown force code ${m.force}`)
  }
  const vars: Record<string, string> = {
    A: label(m.answer),
    WHY: reason,
    WHY_CAP: reason.charAt(0).toUpperCase() + reason.slice(1),
    DOUBT: reason,
    T: t?.id ?? '',
    TS: t?.seat ?? '',
    Y: t !== null ? label(t.cand) : ''
  }
  // A replacer function, so a "$" inside an answer or reason is never read as a replace pattern.
  return template.replace(/\{([A-Z_]+)\}/g, (_, key: string) => vars[key] ?? '')
}
