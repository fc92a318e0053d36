import type { Force, Move, Trace } from '@shared/trace'
import { buildTallies, type SeatIndex, type TaskTallies } from '../../../src/main/engine'
import { cleanCouncilConfig, generateCouncilArray } from '../../../src/main/sim'

/** A move literal. */
export function mv(id: string, round: number, seat: string, force: Force, answer?: string): Move {
  return answer === undefined ? { id, round, seat, force } : { id, round, seat, force, answer }
}

export function trace(task: string, candidates: string[], moves: Move[], gold: string | null = null): Trace {
  return { task, candidates, gold, moves }
}

/**
 * Tallies of the simulator's clean council (docs/engine.md §4: 3 honest seats 0.74 / 0.68 / 0.68, K = 2,
 * 3 rounds) — several streams share one SeatIndex, as every run of the engine must; `prefix` keeps
 * task ids of different streams apart.
 */
export function cleanTallies(seats: SeatIndex, tasks: number, seed: number, prefix: string, rounds = 3): TaskTallies[] {
  return generateCouncilArray({ ...cleanCouncilConfig({ tasks, seed }), rounds, taskPrefix: prefix }).map((t) => buildTallies(t, seats))
}
