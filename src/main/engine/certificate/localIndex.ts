import Flatbush from 'flatbush'
import { buildSites } from './sites'

/**
 * The k-NN database of one round: the D_loc states (docs/engine.md §8.7; AoD §3 "Online: k-NN lookup").
 *
 * For a query state u and each k of 𝒦_used: h = the k-th smallest distance from u to the D_loc
 * states, and the neighbourhood is EVERY D_loc state with distance ≤ h — all ties at h included, so
 * the result never depends on storage order. With discrete states most ties are exact
 * coincidences, so D_loc is stored as distinct states ("sites") with multiplicities in one static
 * flatbush index (no brute force per query):
 * 1. `neighbors(u, m)` returns the m nearest sites in distance order, m = k_max + 1 (+1 more
 *    when a site may lose the excluded task); every site weighs ≥ 1, so their weights cover k_max,
 *    and h_k is the squared distance at which the cumulative weight first reaches k. Flatbush
 *    orders points by the same dx² + dy² that we compute, so h is exact.
 * 2. The neighbourhood is every site with d² ≤ h_k² (compared in squared distances, no rounding
 *    drop). When the returned list is all of D_loc or its last site lies strictly beyond h_max,
 *    no tie can be missing and the list suffices; otherwise a bounding-box `search` of half-width
 *    h_max + 1e-9 (the slack only enlarges the box; the test stays exact) collects every tie.
 * A scored task that is also in D_loc is left out of its own query: its site loses one task and
 * its Z (`excludeRow`).
 */
export interface NeighbourhoodResult {
  /** h² per k (in the order of the `ks` passed). */
  readonly h2: Float64Array
  /** Neighbourhood size per k (≥ k; larger when there are ties at h). */
  readonly count: Float64Array
  /** Σ Z over the neighbourhood per k. */
  readonly sumZ: Float64Array
}

export class LocalIndex {
  /** |D_loc|. */
  readonly size: number
  private readonly x: Float64Array
  private readonly y: Float64Array
  private readonly count: Float64Array
  private readonly sumZ: Float64Array
  private readonly rowSite: Int32Array
  private readonly rowZ: Uint8Array
  private readonly index: Flatbush | null
  // Scratch buffers reused across queries (a query allocates only flatbush's result array).
  private d2 = new Float64Array(0)
  private order = new Int32Array(0)

  /**
   * @param cx @param cy integer ECDF counts of the D_loc rows at this round; @param scale |C|
   * @param z Z_t of those rows
   */
  constructor(cx: Int32Array, cy: Int32Array, z: Uint8Array, scale: number) {
    this.size = cx.length
    const sites = buildSites(cx, cy, z, scale)
    this.x = sites.x
    this.y = sites.y
    this.count = sites.count
    this.sumZ = sites.sumZ
    this.rowSite = sites.siteOf
    this.rowZ = z
    const S = sites.x.length
    if (S === 0) {
      this.index = null
      return
    }
    const index = new Flatbush(S)
    for (let s = 0; s < S; s++) index.add(sites.x[s], sites.y[s])
    index.finish()
    this.index = index
  }

  /** The site of a D_loc row (for cache keys of left-out queries). */
  siteOfRow(row: number): number {
    return this.rowSite[row]
  }

  /** Z of a D_loc row. */
  zOfRow(row: number): number {
    return this.rowZ[row]
  }

  /**
   * Neighbourhoods of (qx, qy) for each k of `ks` (ascending; every k ≤ size − (excluded ? 1 : 0),
   * which the caller guarantees by computing 𝒦_used).
   * @param excludeRow the D_loc row of the querying task itself, or −1.
   */
  query(qx: number, qy: number, ks: readonly number[], excludeRow: number): NeighbourhoodResult {
    const nk = ks.length
    const h2 = new Float64Array(nk)
    const count = new Float64Array(nk)
    const sumZ = new Float64Array(nk)
    const index = this.index
    if (nk === 0 || index === null) return { h2, count, sumZ }
    const exSite = excludeRow >= 0 ? this.rowSite[excludeRow] : -1
    const exZ = excludeRow >= 0 ? this.rowZ[excludeRow] : 0
    const X = this.x
    const Y = this.y
    const W = this.count
    const kmax = ks[nk - 1]

    // Step 1: h_k from the nearest sites. One site more than needed: if it lies strictly beyond
    // h_max, no unreturned site can tie at h_max and step 2 can stay on this list.
    const m = Math.min(X.length, kmax + 1 + (exSite >= 0 ? 1 : 0))
    const ids = index.neighbors(qx, qy, m)
    const L = ids.length
    if (this.d2.length < L) {
      this.d2 = new Float64Array(L)
      this.order = new Int32Array(L)
    }
    const d2 = this.d2
    const order = this.order
    for (let a = 0; a < L; a++) {
      const s = ids[a]
      const dx = X[s] - qx
      const dy = Y[s] - qy
      d2[a] = dx * dx + dy * dy
      order[a] = a
    }
    // Already in distance order from flatbush; an insertion sort keeps that O(L) and makes the
    // cumulative count robust even if the index ever returned equal distances in another order.
    for (let a = 1; a < L; a++) {
      const v = order[a]
      let b = a - 1
      while (b >= 0 && d2[order[b]] > d2[v]) {
        order[b + 1] = order[b]
        b--
      }
      order[b + 1] = v
    }
    let cum = 0
    let ki = 0
    for (let a = 0; a < L && ki < nk; a++) {
      const s = ids[order[a]]
      cum += W[s] - (s === exSite ? 1 : 0)
      while (ki < nk && cum >= ks[ki]) h2[ki++] = d2[order[a]]
    }
    if (ki < nk) throw new Error('LocalIndex.query: k exceeds the available D_loc states')
    const h2max = h2[nk - 1]
    const Z = this.sumZ
    const add = (s: number, dd: number): void => {
      const w = W[s] - (s === exSite ? 1 : 0)
      const zs = Z[s] - (s === exSite ? exZ : 0)
      for (let k = nk - 1; k >= 0 && dd <= h2[k]; k--) {
        count[k] += w
        sumZ[k] += zs
      }
    }

    // Step 2: every site with d² ≤ h², ties included.
    if (L === X.length || d2[order[L - 1]] > h2max) {
      for (let a = 0; a < L; a++) {
        const dd = d2[order[a]]
        if (dd > h2max) break
        add(ids[order[a]], dd)
      }
    } else {
      // The list may end inside a tie at h_max: collect from a box of half-width h_max (+ slack
      // that only enlarges it) and test exactly in squared distances.
      const r = Math.sqrt(h2max) + 1e-9
      const cand = index.search(qx - r, qy - r, qx + r, qy + r)
      for (let a = 0; a < cand.length; a++) {
        const s = cand[a]
        const dx = X[s] - qx
        const dy = Y[s] - qy
        const dd = dx * dx + dy * dy
        if (dd <= h2max) add(s, dd)
      }
    }
    return { h2, count, sumZ }
  }
}
