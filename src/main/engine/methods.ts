/**
 * The aggregation methods, their hyperparameters and the CV grids (docs/engine.md §4, §5, §6).
 *
 * Grid order matters: CV ties go to the first point in this order (§7), which enumerates the
 * method's hyperparameters as nested loops with the first name of HYPER_NAMES outermost.
 */
export type Method =
  | 'majority' | 'majority-final' | 'best-seat' | 'gated' | 'ds-em' | 'ds-em-full' | 'shared' | 'per-agent' | 'tempered' | 'confusion' | 'standing-vote'

export const METHODS: readonly Method[] = [
  'majority', 'majority-final', 'best-seat', 'gated', 'ds-em', 'ds-em-full', 'shared', 'per-agent', 'tempered', 'confusion', 'standing-vote'
]

/** The engine's default for councils (docs/engine.md §11 defines it). */
export const DEFAULT_METHOD: Method = 'standing-vote'

export type HyperName = 'b' | 'kappa' | 's' | 'tau' | 'lambda'
export type Hyper = Partial<Record<HyperName, number>>

export const HYPER_NAMES: Record<Method, readonly HyperName[]> = {
  majority: [],
  'majority-final': [],
  'best-seat': [],
  gated: [],
  'ds-em': [],
  'ds-em-full': [],
  shared: ['b', 's'],
  'per-agent': ['b', 'kappa', 's'],
  tempered: ['b', 'kappa', 's', 'tau'],
  confusion: ['lambda', 'tau'],
  'standing-vote': ['b', 'kappa']
}

/** §4 and §5 grids, each in its search order. */
export const GRID: Record<HyperName, readonly number[]> = {
  b: [0.52, 0.55, 0.58, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9],
  kappa: [0, 1, 2, 3, 4],
  s: [4, 8, 16, 32, 64, 128, 256, 512],
  tau: [0.25, 0.5, 0.75, 1],
  lambda: [0.5, 2, 8, 32, 128, 512]
}

/** A method that cannot run on the given data (exit 2 in the CLI); the message names the cause. */
export class MethodRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MethodRefused'
  }
}

/** The one-coin family (§3, §4): Beta-marginal posterior with per-seat prior means. */
export type OneCoinMethod = 'shared' | 'per-agent' | 'tempered'
export function isOneCoin(m: Method): m is OneCoinMethod {
  return m === 'shared' || m === 'per-agent' || m === 'tempered'
}

/** Methods that read no label (majority, majority-final, ds-em): one fit serves every fold. */
export function isLabelFree(m: Method): boolean {
  return m === 'majority' || m === 'majority-final' || m === 'ds-em' || m === 'ds-em-full'
}

/** Methods with hyperparameters selected by CV (§7). */
export function isTuned(m: Method): boolean {
  return HYPER_NAMES[m].length > 0
}

/**
 * Every grid point of a method, in §4/§5 order (first name outermost). 72 / 360 / 1440 / 24
 * points for shared / per-agent / tempered / confusion; `[{}]` for methods without any.
 */
export function gridPoints(method: Method): Hyper[] {
  let points: Hyper[] = [{}]
  for (const name of HYPER_NAMES[method]) {
    const next: Hyper[] = []
    for (const p of points) for (const v of GRID[name]) next.push({ ...p, [name]: v })
    points = next
  }
  return points
}

/**
 * Checks that `hyper` gives exactly the method's hyperparameters, each in its domain
 * (b ∈ (0,1), s > 0, τ > 0, λ > 0, κ finite).
 * @throws RangeError naming the missing, extra or out-of-range hyperparameter.
 */
export function validateHyper(method: Method, hyper: Hyper): void {
  const names = HYPER_NAMES[method]
  for (const key of Object.keys(hyper) as HyperName[]) {
    if (hyper[key] !== undefined && !names.includes(key)) throw new RangeError(`${method} does not use hyperparameter ${key}`)
  }
  for (const name of names) {
    const v = hyper[name]
    if (v === undefined || !Number.isFinite(v)) throw new RangeError(`${method} needs a finite ${name}`)
    const ok = name === 'b' ? v > 0 && v < 1 : name === 'kappa' ? true : v > 0
    if (!ok) throw new RangeError(`${method}: ${name} = ${v} is out of range`)
  }
}
