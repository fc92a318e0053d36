import { binomialLevel, clopperPearsonLower } from './clopperPearson'
import { concentration } from './concentration'
import type { BoundKind } from './types'

/**
 * L_{t,k} of docs/engine.md §8.7 from one neighbourhood: x = Σ Z over it, n = its size (ties at h
 * included) and b = ω̂_t(h), for the a-th k of 𝒦_used. One rule per 𝒦_used (the union-bound count
 * T·|𝒦_used| is fixed by it):
 * - `hoeffding` (AoD as published): L = x/n − b − c_k, c_k = sqrt(ln(T·|𝒦_used|/δ) / (2k));
 * - `binomial`: L = L^CP(x, n) − b at δ' = δ/(T·|𝒦_used|); its conc is x/n − L^CP, so that
 *   q̂ − b − conc = L as the console's why reads it.
 */
export interface KBoundRule {
  readonly kind: BoundKind
  /** L_{t,k}. */
  lower(a: number, x: number, n: number, bias: number): number
  /** The concentration term reported in `why` beside q̂ = x/n and b. */
  conc(a: number, x: number, n: number): number
}

class HoeffdingRule implements KBoundRule {
  readonly kind = 'hoeffding' as const
  private readonly c: Float64Array

  constructor(kUsed: readonly number[], T: number, delta: number) {
    this.c = Float64Array.from(kUsed, (k) => concentration(k, T, kUsed.length, delta))
  }

  lower(a: number, x: number, n: number, bias: number): number {
    // The published order of operations, so `hoeffding` stays bit-for-bit what it always was.
    return x / n - bias - this.c[a]
  }

  conc(a: number): number {
    return this.c[a]
  }
}

const CACHE_N = 2 ** 26

class BinomialRule implements KBoundRule {
  readonly kind = 'binomial' as const
  private readonly level: number
  // L^CP depends on (x, n) only; discrete states repeat them across queries and k. A numeric key
  // (x·2^26 + n, exact for n < 2^26) keeps the lookup free of a string per query.
  private readonly cache = new Map<number, number>()

  constructor(kUsed: readonly number[], T: number, delta: number) {
    this.level = binomialLevel(delta, T, kUsed.length)
  }

  private cp(x: number, n: number): number {
    if (n >= CACHE_N) return clopperPearsonLower(x, n, this.level)
    const key = x * CACHE_N + n
    let v = this.cache.get(key)
    if (v === undefined) this.cache.set(key, (v = clopperPearsonLower(x, n, this.level)))
    return v
  }

  lower(_a: number, x: number, n: number, bias: number): number {
    return this.cp(x, n) - bias
  }

  conc(_a: number, x: number, n: number): number {
    return x / n - this.cp(x, n)
  }
}

/** The rule of `kind` for one 𝒦_used (ascending) and T, δ. */
export function kBoundRule(kind: BoundKind, kUsed: readonly number[], T: number, delta: number): KBoundRule {
  return kind === 'binomial' ? new BinomialRule(kUsed, T, delta) : new HoeffdingRule(kUsed, T, delta)
}
