import { hashHex } from '../hash'

/**
 * Positions 0..n−1 of `ids` sorted by H(`${seed}:${tag}:${id}`) (docs/engine.md notation: SHA-256 read
 * as a big integer; equal-length hex strings sort like the integers). Equal digests (only possible
 * for repeated ids) keep input order, so the order never depends on the sort algorithm.
 */
export function hashOrder(ids: readonly string[], seed: string, tag: string): Int32Array {
  const keys = ids.map((id) => hashHex(`${seed}:${tag}:${id}`))
  const order = Array.from({ length: ids.length }, (_, i) => i)
  order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b))
  return Int32Array.from(order)
}

/**
 * D_mod / D_loc split (docs/engine.md §8.4; AoD §3 "20% for bias-envelope estimation"): D_mod = the
 * first round(0.2·|C|) tasks of C in H(`${seed}:split:${task}`) order, D_loc = the rest (both
 * returned in that hash order, which is also the order of the ≤ 4000 modulus subsample).
 */
export function splitModLoc(ids: readonly string[], seed: string): { mod: Int32Array; loc: Int32Array } {
  const order = hashOrder(ids, seed, 'split')
  const nMod = modSize(ids.length)
  return { mod: order.slice(0, nMod), loc: order.slice(nMod) }
}

const modSize = (n: number): number => Math.round(0.2 * n)

/**
 * The fewest calibration labels |C| whose D_loc holds the smallest k of 𝒦 (docs/engine.md §8.4,
 * §8.7: 𝒦_used = the k ≤ |D_loc|, and with none every task is deferred): below it no task can act,
 * whatever the council does. 160 for k = 128.
 */
export function minCalibrationFor(ks: readonly number[]): number {
  const k = Math.min(...ks)
  let n = Math.max(k, 0)
  while (n - modSize(n) < k) n++
  return n
}

/**
 * The halves of λ = auto (docs/engine.md §8 "Budget"; AoD B.5): C1 = the first ⌊|C|/2⌋ tasks of C in
 * H(`${seed}:lambda:${task}`) order, C2 = the rest.
 */
export function lambdaHalves(ids: readonly string[], seed: string): { c1: Int32Array; c2: Int32Array } {
  const order = hashOrder(ids, seed, 'lambda')
  const half = Math.floor(ids.length / 2)
  return { c1: order.slice(0, half), c2: order.slice(half) }
}
