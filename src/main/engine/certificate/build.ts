import { concentration } from './concentration'
import { EmpiricalCdf } from './ecdf'
import { LocalIndex } from './localIndex'
import { EmpiricalModulus } from './modulus'
import { resolveOptions } from './options'
import { fitSmoother, type SmootherKind } from './smoother'
import { splitModLoc } from './split'
import { finalRoundError } from './budget'
import type { CalibrationTask, CertificateOptions, ResolvedOptions } from './types'

/**
 * Everything of the certificate that does not depend on the budget β (docs/engine.md §8.1–8.7),
 * built once from the calibration set C:
 * - per round t, the ECDF normaliser of each coordinate on all of C (§8.3);
 * - the D_mod / D_loc split by H(`${seed}:split:${task}`) (§8.4);
 * - per round, the smoother q̃_t on D_mod (§8.5) and its empirical modulus ω̂_t on the first
 *   ≤ 4000 D_mod tasks in split-hash order (§8.6);
 * - per round, one flatbush index over the D_loc states (§8.7);
 * - 𝒦_used = {k ∈ 𝒦 : k ≤ |D_loc|} (𝒦 per the bound: up to 4096 for `binomial`, 512 for
 *   `hoeffding`), whose size sets the union-bound count T·|𝒦_used| of either bound.
 * β only moves the threshold 1 − α, so one built certificate serves every budget (λ sweep,
 * frontier) — see `bounds.ts` and `decide.ts`.
 */
export interface RoundModel {
  readonly cdfP1: EmpiricalCdf
  readonly cdfDelta: EmpiricalCdf
  readonly smoother: SmootherKind
  readonly modulus: EmpiricalModulus
  readonly local: LocalIndex
}

export interface Certificate {
  readonly options: ResolvedOptions
  /** Rounds T. */
  readonly T: number
  /** |C| (also the ECDF denominator). */
  readonly size: number
  /** Task ids of D_mod and D_loc, in split-hash order. */
  readonly modIds: readonly string[]
  readonly locIds: readonly string[]
  /** 𝒦_used for a query whose task is not in D_loc. */
  readonly kUsed: readonly number[]
  /** ê_T = 1 − mean z[T−1] on C (out-of-fold). */
  readonly finalRoundError: number
  readonly rounds: readonly RoundModel[]
  /** D_loc row of each D_loc task id (for the leave-self-out rule). */
  readonly locRow: ReadonlyMap<string, number>
}

/** T of a calibration set, with the shape checks every later step relies on. */
export function calibrationRounds(calibration: readonly CalibrationTask[]): number {
  if (calibration.length === 0) throw new RangeError('certificate: the calibration set C is empty')
  const T = calibration[0].states.length
  if (T < 1) throw new RangeError(`certificate: calibration task ${calibration[0].id} has no rounds`)
  const seen = new Set<string>()
  for (const task of calibration) {
    if (seen.has(task.id)) throw new RangeError(`certificate: duplicate calibration task ${task.id}`)
    seen.add(task.id)
    if (task.states.length !== T || task.z.length !== T) {
      throw new RangeError(
        `certificate: calibration task ${task.id} has ${task.states.length} states and ${task.z.length} z, expected T = ${T} (pad short traces)`
      )
    }
    for (let t = 0; t < T; t++) {
      const s = task.states[t]
      if (!Number.isFinite(s.p1) || !Number.isFinite(s.delta)) {
        throw new RangeError(`certificate: calibration task ${task.id} round ${t} has a non-finite state`)
      }
      if (task.z[t] !== 0 && task.z[t] !== 1) throw new RangeError(`certificate: calibration task ${task.id} z[${t}] must be 0 or 1`)
    }
  }
  return T
}

/** 𝒦_used = the k of 𝒦 (ascending) with k ≤ the available D_loc size (§8.7). */
export function usableKs(ks: readonly number[], available: number): number[] {
  return ks.filter((k) => k <= available)
}

/** Hoeffding's c_k for each k of 𝒦_used (§8.7). */
export function concentrations(kUsed: readonly number[], T: number, delta: number): Float64Array {
  return Float64Array.from(kUsed, (k) => concentration(k, T, kUsed.length, delta))
}

/**
 * Build the β-independent certificate on calibration set C.
 * @param T rounds; defaults to C's own. λ = auto passes the T of the full C when building on C1.
 */
export function buildCertificate(
  calibration: readonly CalibrationTask[],
  options: CertificateOptions = {},
  T: number = calibrationRounds(calibration)
): Certificate {
  const opts = resolveOptions(options)
  if (calibrationRounds(calibration) !== T) throw new RangeError(`certificate: calibration rounds differ from T = ${T}`)
  const n = calibration.length
  const ids = calibration.map((c) => c.id)
  const { mod, loc } = splitModLoc(ids, opts.seed)
  const modSub = mod.length > opts.modulusSubsample ? mod.subarray(0, opts.modulusSubsample) : mod

  const rounds: RoundModel[] = []
  for (let t = 0; t < T; t++) {
    const p1 = new Float64Array(n)
    const dl = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      p1[i] = calibration[i].states[t].p1
      dl[i] = calibration[i].states[t].delta
    }
    const cdfP1 = new EmpiricalCdf(p1)
    const cdfDelta = new EmpiricalCdf(dl)
    const pick = (rows: Int32Array): { cx: Int32Array; cy: Int32Array; z: Uint8Array } => {
      const cx = new Int32Array(rows.length)
      const cy = new Int32Array(rows.length)
      const z = new Uint8Array(rows.length)
      for (let a = 0; a < rows.length; a++) {
        const i = rows[a]
        cx[a] = cdfP1.count(p1[i])
        cy[a] = cdfDelta.count(dl[i])
        z[a] = calibration[i].z[t]
      }
      return { cx, cy, z }
    }
    const m = pick(mod)
    const fit = fitSmoother(m.cx, m.cy, m.z, n)
    // The modulus subsample is a prefix of D_mod (split-hash order), so its q̃ is a prefix of fit.q.
    const S = modSub.length
    const mx = new Float64Array(S)
    const my = new Float64Array(S)
    for (let a = 0; a < S; a++) {
      mx[a] = m.cx[a] / n
      my[a] = m.cy[a] / n
    }
    const modulus = new EmpiricalModulus(mx, my, fit.q.subarray(0, S), opts.modulusBins)
    const l = pick(loc)
    rounds.push({ cdfP1, cdfDelta, smoother: fit.kind, modulus, local: new LocalIndex(l.cx, l.cy, l.z, n) })
  }

  const locRow = new Map<string, number>()
  for (let a = 0; a < loc.length; a++) locRow.set(ids[loc[a]], a)
  return {
    options: opts,
    T,
    size: n,
    modIds: Array.from(mod, (i) => ids[i]),
    locIds: Array.from(loc, (i) => ids[i]),
    kUsed: usableKs(opts.ks, loc.length),
    finalRoundError: finalRoundError(
      calibration.map((c) => c.z),
      T
    ),
    rounds,
    locRow
  }
}
