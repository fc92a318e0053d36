import { hashMod } from '../hash'

/** Default spot-check rate ρ (docs/engine.md §10). */
export const DEFAULT_SPOT_RATE = 0.05

/**
 * Spot-check routing (docs/engine.md §10): a task is spot-checked — labeled blind as a `random` label
 * after its certificate decision, which it keeps — when
 *
 *     H(`${seed}:spot:${task}`) mod 10000 < round(10000·ρ)
 *
 * in integers. Keyed on the task id alone, so the choice is deterministic and does not depend on
 * which other tasks are in the batch or their order — and therefore stays a uniform random draw.
 */
export function isSpotChecked(task: string, rho: number = DEFAULT_SPOT_RATE, seed: number | string = 0): boolean {
  if (!(rho >= 0 && rho <= 1)) throw new RangeError(`isSpotChecked: ρ must be in [0, 1], got ${rho}`)
  return hashMod(`${seed}:spot:${task}`, 10000) < Math.round(10000 * rho)
}
