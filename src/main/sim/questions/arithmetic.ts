import type { QuestionMaker } from '../config'
import type { Rng } from '../prng'
import { groupDigits, shuffledItem } from './item'

/**
 * Arithmetic with four options ("Arithmetic", K = 4): products, sums, percentages and short word
 * problems, computed exactly. Wrong options are the slips people and models make — a dropped
 * carry (±10, the distractor), ±100, off by one, swapped final digits — and each seat's argument
 * shows a worked computation that lands on the answer it backs (with the slip built in).
 */

const STORIES: [string, string, string][] = [
  ['A pharmacy receives {a} boxes of {b} tablets and dispenses {c} of them.', 'tablets', 'are left'],
  ['A warehouse holds {a} crates of {b} bottles; {c} bottles are shipped out.', 'bottles', 'remain in the warehouse'],
  ['A school orders {a} packs of {b} pencils and hands out {c} pencils.', 'pencils', 'are left over'],
  ['A clinic books {a} sessions of {b} minutes each, and {c} minutes are cancelled.', 'minutes', 'are still booked']
]
const PERCENTS = [5, 15, 20, 25, 35, 40, 45, 60, 75]

/** Three distinct plausible wrong values: the carry slip first (it becomes the distractor). */
function slips(rng: Rng, v: number, first?: number): number[] {
  const out: number[] = []
  const add = (x: number): void => {
    if (x > 0 && x !== v && !out.includes(x)) out.push(x)
  }
  add(first ?? (v > 10 && rng.next() < 0.5 ? v - 10 : v + 10))
  const tail = v % 100
  const swapped = v - tail + (tail % 10) * 10 + Math.floor(tail / 10)
  const pool = [v + 100, v - 100, v + 1, v - 1, swapped, v + 20, v - 20, v + 10, v - 10]
  while (out.length < 3) add(pool[rng.int(pool.length)])
  return out
}

function item(rng: Rng, question: string, gold: number, wrong: number[], steps: (x: number) => string) {
  const answers = [gold, ...wrong].map(groupDigits)
  const values = [gold, ...wrong]
  return shuffledItem(rng, question, answers, (label) => steps(values[answers.indexOf(label)]))
}

export const arithmeticQuestions: QuestionMaker = (rng) => {
  const g = groupDigits
  switch (rng.int(4)) {
    case 0: {
      const a = 12 + rng.int(87)
      const b = 10 * (1 + rng.int(9)) + 1 + rng.int(9)
      const tens = a * (b - (b % 10))
      const v = a * b
      return item(rng, `What is ${a} × ${b}?`, v, slips(rng, v), (x) => `${a} × ${b - (b % 10)} = ${g(tens)}, plus ${a} × ${b % 10} = ${g(x - tens)}, which gives ${g(x)}`)
    }
    case 1: {
      const [a, b, c] = [100 + rng.int(900), 100 + rng.int(900), 100 + rng.int(900)]
      const v = a + b + c
      return item(rng, `What is ${a} + ${b} + ${c}?`, v, slips(rng, v), (x) => `${a} + ${b} = ${g(x - c)}, and adding ${c} gives ${g(x)}`)
    }
    case 2: {
      const [template, unit, verb] = rng.pick(STORIES)
      const a = 6 + rng.int(40)
      const b = 12 + rng.int(48)
      const c = 10 + rng.int(Math.floor((a * b) / 2))
      const v = a * b - c
      const text = template.replace('{a}', String(a)).replace('{b}', String(b)).replace('{c}', String(c))
      return item(rng, `${text} How many ${unit} ${verb}?`, v, slips(rng, v), (x) => `${a} × ${b} = ${g(x + c)} ${unit}, minus ${c} leaves ${g(x)}`)
    }
    default: {
      const p = rng.pick(PERCENTS)
      const n = 20 * (5 + rng.int(95))
      const v = (p * n) / 100
      // The natural slip here is the neighbouring percentage, not a carry.
      return item(rng, `What is ${p}% of ${g(n)}?`, v, slips(rng, v, ((p + 5) * n) / 100), (x) => `${p}% of ${g(n)} is ${g(n)} × ${p} / 100 = ${g(x)}`)
    }
  }
}
