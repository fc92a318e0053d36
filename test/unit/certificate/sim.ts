import { createRng, type Rng } from '../../../src/main/sim/prng'
import { posteriorState, socialState } from '../../../src/main/engine/certificate'
import type { CalibrationTask, RoundState, ScoredTask } from '../../../src/main/engine/certificate'

/**
 * A small simulated council for the certificate tests (not the engine's simulator): I seats answer
 * a K-way question over T rounds. Tasks are easy (seat accuracy `easyAcc`) or hard (`hardAcc`);
 * a wrong seat picks the task's distractor with probability `distractor` (0.6), so wrong majorities exist. After
 * round 0 each seat herds to the previous plurality with probability `herd`, else keeps its answer
 * with probability 0.7, else answers afresh. Ŷ_t is the plurality of the current answers (ties by
 * the seeded stream); z_t = 1{Ŷ_t = gold}.
 */
export interface SimTask extends CalibrationTask, ScoredTask<string> {
  readonly gold: string
  readonly z: Uint8Array
}

export interface CouncilOptions {
  readonly seats?: number
  readonly K?: number
  readonly T?: number
  readonly easyShare?: number
  readonly easyAcc?: number
  readonly hardAcc?: number
  readonly herd?: number
  /** Probability that a wrong seat picks the task's distractor (default 0.6). */
  readonly distractor?: number
  /** `social` (default) or the rounded `posterior` of a one-coin vote model. */
  readonly state?: 'social' | 'posterior'
  readonly idPrefix?: string
}

function answerOnce(rng: Rng, acc: number, gold: number, distractor: number, K: number, pull: number): number {
  if (rng.chance(acc)) return gold
  if (rng.chance(pull)) return distractor
  let a = rng.int(K - 1)
  if (a >= gold) a++
  return a
}

export function simulateCouncil(n: number, seed: number | string, options: CouncilOptions = {}): SimTask[] {
  const I = options.seats ?? 5
  const K = options.K ?? 4
  const T = options.T ?? 4
  const easyShare = options.easyShare ?? 0.6
  const easyAcc = options.easyAcc ?? 0.9
  const hardAcc = options.hardAcc ?? 0.45
  const herd = options.herd ?? 0.35
  const pull = options.distractor ?? 0.6
  const prefix = options.idPrefix ?? 't'
  const candidates = Array.from({ length: K }, (_, c) => `c${c}`)
  const rng = createRng(seed, 'certificate-test')
  const tasks: SimTask[] = []
  for (let i = 0; i < n; i++) {
    const gold = rng.int(K)
    let distractor = rng.int(K - 1)
    if (distractor >= gold) distractor++
    const acc = rng.chance(easyShare) ? easyAcc : hardAcc
    const current = new Int32Array(I)
    const states: RoundState[] = []
    const answers: string[] = []
    const z = new Uint8Array(T)
    let plurality = -1
    for (let t = 0; t < T; t++) {
      for (let s = 0; s < I; s++) {
        if (t === 0) current[s] = answerOnce(rng, acc, gold, distractor, K, pull)
        else if (rng.chance(herd)) current[s] = plurality
        else if (!rng.chance(0.7)) current[s] = answerOnce(rng, acc, gold, distractor, K, pull)
      }
      const counts = new Int32Array(K)
      for (let s = 0; s < I; s++) counts[current[s]]++
      let top = 0
      for (let c = 1; c < K; c++) if (counts[c] > counts[top]) top = c
      const tied: number[] = []
      for (let c = 0; c < K; c++) if (counts[c] === counts[top]) tied.push(c)
      plurality = tied.length === 1 ? tied[0] : rng.pick(tied)
      const names = Array.from(current, (c) => candidates[c])
      if (options.state === 'posterior') {
        // One-coin style log-odds: each vote adds ln(0.75/0.25) + ln(K−1) to its candidate.
        const w = Math.log(3) + Math.log(K - 1)
        const logits = Array.from(counts, (c) => c * w)
        const mx = Math.max(...logits)
        const ex = logits.map((l) => Math.exp(l - mx))
        const sum = ex.reduce((a, b) => a + b, 0)
        states.push(posteriorState(ex.map((e) => e / sum)))
      } else {
        states.push(socialState(candidates, names))
      }
      answers.push(candidates[plurality])
      z[t] = plurality === gold ? 1 : 0
    }
    tasks.push({ id: `${prefix}${i}`, states, answers, z, gold: candidates[gold] })
  }
  return tasks
}

/** Per-task z arrays. */
export function zOf(tasks: readonly SimTask[]): Uint8Array[] {
  return tasks.map((t) => t.z)
}
