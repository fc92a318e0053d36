/**
 * Chance-corrected agreement between reviewers (agreement per reviewer pair and overall).
 * Pure functions of label counts; the categories are the candidates labeled (a candidate nobody
 * chose adds nothing to chance agreement, so it need not be listed).
 *
 * κ = (P_o − P_e) / (1 − P_e): observed agreement beyond what chance agreement P_e leaves. Null
 * when P_e = 1 (every label was one category: agreement is certain, κ undefined) or nothing to rate.
 */

export type Kappa = {
  /** Items rated (tasks). */
  n: number
  /** P_o: observed agreement. */
  observed: number
  /** P_e: agreement expected by chance. */
  expected: number
  kappa: number | null
}

function kappaOf(n: number, observed: number, expected: number): Kappa {
  const kappa = n === 0 || 1 - expected < 1e-12 ? null : (observed - expected) / (1 - expected)
  return { n, observed, expected, kappa }
}

/**
 * Cohen's κ (Cohen 1960) of two raters over the items both rated: `pairs[i]` = [rater A's label,
 * rater B's label]. P_e = Σ_k p_A(k)·p_B(k), each rater's own marginal distribution.
 */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): Kappa {
  const n = pairs.length
  if (n === 0) return kappaOf(0, 0, 0)
  const a = new Map<string, number>()
  const b = new Map<string, number>()
  let agree = 0
  for (const [x, y] of pairs) {
    if (x === y) agree++
    a.set(x, (a.get(x) ?? 0) + 1)
    b.set(y, (b.get(y) ?? 0) + 1)
  }
  let expected = 0
  for (const [k, na] of a) expected += (na / n) * ((b.get(k) ?? 0) / n)
  return kappaOf(n, agree / n, expected)
}

/**
 * Fleiss' κ (Fleiss 1971) over items rated by several raters: `items[i][j]` = how many raters put
 * item i in category j. Generalised to a varying number of raters per item (Gwet 2014, Handbook of
 * Inter-Rater Reliability, §"Fleiss' generalized kappa"): items with fewer than two ratings are
 * left out; P_i = Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1)) and P_o is their mean; p_j is the mean over
 * items of n_ij / n_i and P_e = Σ_j p_j². With the same number of raters on every item this is
 * exactly Fleiss' κ.
 */
export function fleissKappa(items: readonly (readonly number[])[]): Kappa {
  const rated = items.filter((row) => row.reduce((s, x) => s + x, 0) >= 2)
  const n = rated.length
  if (n === 0) return kappaOf(0, 0, 0)
  const categories = Math.max(...rated.map((row) => row.length))
  const share = new Array<number>(categories).fill(0)
  let observed = 0
  for (const row of rated) {
    const ni = row.reduce((s, x) => s + x, 0)
    observed += row.reduce((s, x) => s + x * (x - 1), 0) / (ni * (ni - 1)) / n
    row.forEach((x, j) => (share[j] += x / ni / n))
  }
  return kappaOf(n, observed, share.reduce((s, p) => s + p * p, 0))
}
