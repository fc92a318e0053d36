import type { CalibrationTask, RoundState, ScoredTask } from '../../../src/main/engine/certificate'
import type { Rng } from '../../../src/main/sim/prng'

/**
 * Fixed discrete laws of certificate states with a known correctness q(U): the
 * ground truth the validity harness checks the act-or-defer certificate against. A task's path of
 * states U_0..U_{T−1} is drawn from the law; Z_t ~ Bernoulli(q(U_t)) through one latent uniform
 * per task (Z_t = 1{V < q(U_t)}), so a task that is right stays right as its state firms up — as a
 * council's answer does — while every Z_t keeps exactly its Bernoulli(q(U_t)) law given the states.
 */
export interface Cell {
  readonly state: RoundState
  /** P(Z = 1 | U = state). */
  readonly q: number
}

export interface StateLaw {
  readonly name: string
  readonly T: number
  readonly cells: readonly Cell[]
  /** The round-0 cell's probabilities (sum 1). */
  readonly start: readonly number[]
  /** The next round's cell given this round's (a function of the cell and the generator only). */
  step(cell: number, rng: Rng): number
}

/** A law's sample: the tasks, and each round's cell (for the oracle). */
export interface LawSample {
  readonly tasks: (CalibrationTask & ScoredTask<number>)[]
  /** cells[i][t]: the cell of task i at round t. */
  readonly cells: Int32Array[]
}

function drawCell(rng: Rng, weights: readonly number[]): number {
  let u = rng.next()
  for (let c = 0; c < weights.length - 1; c++) {
    u -= weights[c]
    if (u < 0) return c
  }
  return weights.length - 1
}

/** n tasks of the law; answers are the round index (the harness scores Z, not answers). */
export function sampleLaw(law: StateLaw, n: number, rng: Rng, prefix: string): LawSample {
  const tasks: (CalibrationTask & ScoredTask<number>)[] = []
  const cells: Int32Array[] = []
  for (let i = 0; i < n; i++) {
    const path = new Int32Array(law.T)
    path[0] = drawCell(rng, law.start)
    for (let t = 1; t < law.T; t++) path[t] = law.step(path[t - 1], rng)
    const v = rng.next()
    tasks.push({
      id: `${prefix}${i}`,
      states: Array.from(path, (c) => law.cells[c].state),
      z: Uint8Array.from(path, (c) => (v < law.cells[c].q ? 1 : 0)),
      answers: Array.from(path, (_, t) => t)
    })
    cells.push(path)
  }
  return { tasks, cells }
}

/**
 * One round, five cells: two well above the action line 1 − α = 0.85 (β = 0.20), one just above,
 * one just below, and a heavy one far below — acting there alone costs WA = 0.35 × 0.6 = 0.21 > β,
 * so a bound that acts where it should not fails the WA check.
 */
export const ONE_ROUND: StateLaw = {
  name: 'one round',
  T: 1,
  cells: [
    { state: { p1: 1, delta: 1 }, q: 0.97 },
    { state: { p1: 0.8, delta: 0.6 }, q: 0.9 },
    { state: { p1: 0.75, delta: 0.5 }, q: 0.86 },
    { state: { p1: 0.6, delta: 0.2 }, q: 0.84 },
    { state: { p1: 0.5, delta: 0 }, q: 0.4 }
  ],
  start: [0.35, 0.15, 0.05, 0.1, 0.35],
  step: (cell) => cell
}

/**
 * Two rounds on a ladder of six cells, q rising from 0.30 to 0.97 and crossing the line between
 * rungs 2 (0.84) and 3 (0.87); between the rounds a task climbs one rung with probability 1/2
 * (a council converging), so acting at round 0 and waiting for round 1 both happen. Acting on
 * every task at round 0 would cost WA ≈ 0.23 > β.
 */
export const TWO_ROUNDS: StateLaw = {
  name: 'two rounds',
  T: 2,
  cells: [
    { state: { p1: 0.5, delta: 0 }, q: 0.3 },
    { state: { p1: 0.6, delta: 0.2 }, q: 0.6 },
    { state: { p1: 0.7, delta: 0.4 }, q: 0.84 },
    { state: { p1: 0.8, delta: 0.6 }, q: 0.87 },
    { state: { p1: 0.9, delta: 0.8 }, q: 0.92 },
    { state: { p1: 1, delta: 1 }, q: 0.97 }
  ],
  start: [0.15, 0.15, 0.15, 0.15, 0.15, 0.25],
  step: (cell, rng) => (cell < 5 && rng.chance(0.5) ? cell + 1 : cell)
}
