import betaQuantile from '@stdlib/stats-base-dists-beta-quantile'

/**
 * Clopper–Pearson lower confidence bound of a binomial proportion (docs/engine.md §8.7, `binomial`):
 *
 *     L^CP(x, n) = 0 if x = 0, else the δ'-quantile of Beta(x, n − x + 1)
 *
 * — the p with P(Bin(n, p) ≥ x) = δ', so P(L^CP > p) ≤ δ' for every true p. At x = n it is
 * δ'^(1/n). Checks (δ' = 0.0025): L^CP(128, 128) = 0.9543, L^CP(120, 128) = 0.8529,
 * L^CP(0, 128) = 0. The Beta quantile is stdlib's (a solved problem, not ours to re-derive).
 * @param x successes (Σ Z over the neighbourhood), 0 ≤ x ≤ n
 * @param n trials (the neighbourhood's size, ties included), n ≥ 1
 * @param level δ' in (0, 1)
 */
export function clopperPearsonLower(x: number, n: number, level: number): number {
  if (!(n >= 1 && x >= 0 && x <= n)) throw new RangeError(`clopperPearsonLower: need 0 ≤ x ≤ n, n ≥ 1; got x = ${x}, n = ${n}`)
  if (!(level > 0 && level < 1)) throw new RangeError(`clopperPearsonLower: level must be in (0, 1), got ${level}`)
  if (x === 0) return 0
  return betaQuantile(level, x, n - x + 1)
}

/**
 * δ' = δ / (T·|𝒦_used|): the per-(round, k) level of the union bound that lets the stopping rule
 * look at every round and take the best k (the same count as Hoeffding's c_k).
 */
export function binomialLevel(delta: number, T: number, kUsedCount: number): number {
  return delta / (T * kUsedCount)
}
