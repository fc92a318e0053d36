import type { QuestionItem } from '../config'
import type { Rng } from '../prng'

/**
 * Builds a QuestionItem from answers listed as [gold, distractor, …other wrong ones], shuffled
 * into a random candidate order: the position of the gold must carry no signal (BDA D.6).
 * `argue(label, isGold, rng)` phrases a seat's justification for one candidate.
 */
export function shuffledItem(
  rng: Rng,
  question: string,
  answers: string[],
  argue: (label: string, isGold: boolean, rng: Rng) => string
): QuestionItem {
  const order = answers.map((_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    const tmp = order[i]
    order[i] = order[j]
    order[j] = tmp
  }
  const candidates = order.map((i) => answers[i])
  return {
    question,
    candidates,
    gold: order.indexOf(0),
    distractor: order.indexOf(1),
    argue: (c, r) => argue(candidates[c], order[c] === 0, r)
  }
}

/** 1234567 → "1,234,567" without depending on the host's ICU data. */
export function groupDigits(n: number): string {
  const s = String(Math.abs(n))
  let out = ''
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ','
    out += s[i]
  }
  return n < 0 ? `-${out}` : out
}
