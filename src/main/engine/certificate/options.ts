import type { BoundKind, CertificateOptions, ResolvedOptions } from './types'

/** The contract's k family 𝒦 of the `hoeffding` bound (docs/engine.md §8; AoD §6 "K = {128, 256, 512}"). */
export const DEFAULT_KS: readonly number[] = [128, 256, 512]

/** The k family of the `binomial` bound (docs/engine.md §8.7): the larger k belong to this bound only. */
export const BINOMIAL_KS: readonly number[] = [128, 256, 512, 1024, 2048, 4096]

/** §8.7's default bound. */
export const DEFAULT_BOUND: BoundKind = 'binomial'

/** §8.7's bounds, the default first (`--bound`, `engine.bound`). */
export const BOUND_KINDS: readonly BoundKind[] = ['binomial', 'hoeffding']

/** The default 𝒦 of a bound. */
export function defaultKs(bound: BoundKind): readonly number[] {
  return bound === 'binomial' ? BINOMIAL_KS : DEFAULT_KS
}

/**
 * Resolve certificate options to the docs/engine.md §8 defaults (bound `binomial`, δ = 0.03,
 * ε_act = 0.02, 𝒦 = the bound's family, seed 0, D_mod modulus subsample 4000) and validate them,
 * so a bad setting fails loudly here rather than as a silent NaN inside a bound.
 */
export function resolveOptions(options: CertificateOptions = {}): ResolvedOptions {
  const bound = options.bound ?? DEFAULT_BOUND
  if (!BOUND_KINDS.includes(bound)) throw new RangeError(`certificate: bound must be ${BOUND_KINDS.join(' or ')}, got ${String(bound)}`)
  const delta = options.delta ?? 0.03
  const epsAct = options.epsAct ?? 0.02
  const ks = [...(options.ks ?? defaultKs(bound))].sort((a, b) => a - b)
  const modulusSubsample = options.modulusSubsample ?? 4000
  const modulusBins = options.modulusBins ?? 2048
  if (!(delta > 0 && delta < 1)) throw new RangeError(`certificate: δ must be in (0, 1), got ${delta}`)
  if (!(epsAct >= 0 && epsAct < 1)) throw new RangeError(`certificate: ε_act must be in [0, 1), got ${epsAct}`)
  for (let i = 0; i < ks.length; i++) {
    if (!Number.isInteger(ks[i]) || ks[i] < 1) throw new RangeError(`certificate: k must be a positive integer, got ${ks[i]}`)
    if (i > 0 && ks[i] === ks[i - 1]) throw new RangeError(`certificate: duplicate k ${ks[i]}`)
  }
  if (!Number.isInteger(modulusSubsample) || modulusSubsample < 2) {
    throw new RangeError(`certificate: modulus subsample must be an integer ≥ 2, got ${modulusSubsample}`)
  }
  if (!Number.isInteger(modulusBins) || modulusBins < 1) {
    throw new RangeError(`certificate: modulus bins must be a positive integer, got ${modulusBins}`)
  }
  return { seed: String(options.seed ?? 0), bound, delta, epsAct, ks, modulusSubsample, modulusBins }
}
