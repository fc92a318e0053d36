import { isotonicPredict, type IsotonicModel } from '../isotonic'
import { TIE_EPS } from '../tie-break'

// Read once: under some module transforms (tsx, vitest) an imported binding is a getter per access.
const EPS = TIE_EPS

/**
 * §11's recalibration of a posterior by a PAVA map of its top-label probability: the m candidates
 * tied at the top (within TIE_EPS, §6) each get p1' = iso(p1), the others are rescaled in proportion
 * so the vector still sums to 1. Two clamps keep the answer the raw posterior's (a recalibration that
 * changed the argmax would change the method's accuracy, not its calibration):
 *   p1' ≤ 1/m                          (the tied top set stays a valid share of the mass), and
 *   p1' ≥ (p2 + 2ε·ρ) / (ρ + m·p2)   (ρ = Σ rest; the best of the rest, rescaled, stays 2ε = 2·TIE_EPS
 *                                     below the top, so the tie rule still picks from the same set).
 * When the top set holds all the mass there is nothing to rescale and the posterior is unchanged.
 * In place; O(K).
 */
export function recalibrateTop(p: Float64Array, K: number, iso: IsotonicModel | null): Float64Array {
  if (iso === null || iso.x.length === 0) return p
  let p1 = -Infinity
  for (let g = 0; g < K; g++) if (p[g] > p1) p1 = p[g]
  let m = 0
  let p2 = 0
  let rest = 0
  for (let g = 0; g < K; g++) {
    if (p[g] >= p1 - EPS) m++
    else {
      rest += p[g]
      if (p[g] > p2) p2 = p[g]
    }
  }
  if (m === K || rest <= 0) return p
  let q = isotonicPredict(iso, p1)
  // 2·EPS of headroom: the rescaled runner-up must not join the top set under §6's tie rule.
  const floor = (p2 + 2 * EPS * rest) / (rest + m * p2)
  if (q < floor) q = floor
  if (q > 1 / m) q = 1 / m
  const scale = (1 - m * q) / rest
  for (let g = 0; g < K; g++) p[g] = p[g] >= p1 - EPS ? q : p[g] * scale
  return p
}
