/**
 * Hoeffding concentration term of the k-NN bound (docs/engine.md §8.7; AoD §3, Theorem 2):
 *
 *     c_k = sqrt( ln(T·|𝒦_used| / δ) / (2k) )
 *
 * The union bound over the T·|𝒦_used| (round, k) pairs is what lets the stopping rule look at
 * every round and take the best k without losing validity. Check (§8): c_128 = 0.1530 for
 * T·|𝒦_used| = 12, δ = 0.03.
 */
export function concentration(k: number, T: number, kUsedCount: number, delta: number): number {
  return Math.sqrt(Math.log((T * kUsedCount) / delta) / (2 * k))
}
