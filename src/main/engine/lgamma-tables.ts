import gammaln from '@stdlib/math-base-special-gammaln'

/** Counts above this are evaluated with gammaln directly rather than tabulated. */
const TABLE_CAP = 4096

/**
 * Per-seat tables of lnΓ(α_i + n) and lnΓ(β_i + n) for integer n (docs/engine.md §3), so that
 * lnB(α_i + c, β_i + d) − lnΓ(α_i + β_i + N) costs two lookups. Tables fill lazily up to the
 * largest count seen (O(max N) gammaln calls per seat and parameter setting); seats at or beyond
 * `alpha.length` (unseen at fit time) share the `unseen` parameters.
 * `reset` swaps in new parameters while reusing the buffers — the CV grid calls it per point.
 */
export class SeatTables {
  private alpha!: Float64Array
  private beta!: Float64Array
  private unseenAlpha = 1
  private unseenBeta = 1
  private a: Float64Array[] = []
  private b: Float64Array[] = []
  private filled = new Int32Array(0)

  constructor(alpha: Float64Array, beta: Float64Array, unseenAlpha: number, unseenBeta: number) {
    this.reset(alpha, beta, unseenAlpha, unseenBeta)
  }

  reset(alpha: Float64Array, beta: Float64Array, unseenAlpha: number, unseenBeta: number): void {
    this.alpha = alpha
    this.beta = beta
    this.unseenAlpha = unseenAlpha
    this.unseenBeta = unseenBeta
    if (this.filled.length < alpha.length + 1) {
      const f = new Int32Array(alpha.length + 1)
      this.filled = f
    } else this.filled.fill(0)
  }

  /** Table slot of global seat gi: its own, or the shared unseen slot (= alpha.length). */
  slot(gi: number): number {
    return gi < this.alpha.length ? gi : this.alpha.length
  }

  alphaOf(gi: number): number {
    return gi < this.alpha.length ? this.alpha[gi] : this.unseenAlpha
  }

  betaOf(gi: number): number {
    return gi < this.beta.length ? this.beta[gi] : this.unseenBeta
  }

  /**
   * Ensures slot k's tables cover 0..N and returns true, or false when N exceeds the cap (the
   * caller then uses gammaln directly).
   */
  ensure(k: number, N: number): boolean {
    if (N < this.filled[k]) return true
    if (N >= TABLE_CAP) return false
    let A = this.a[k]
    let B = this.b[k]
    if (A === undefined || A.length <= N) {
      const size = Math.min(TABLE_CAP, Math.max(16, 1 << Math.ceil(Math.log2(N + 1))))
      A = this.a[k] = new Float64Array(size)
      B = this.b[k] = new Float64Array(size)
      this.filled[k] = 0
    }
    const al = k < this.alpha.length ? this.alpha[k] : this.unseenAlpha
    const be = k < this.beta.length ? this.beta[k] : this.unseenBeta
    // Fill the whole buffer at once: the next count for this seat is then a lookup.
    for (let n = this.filled[k]; n < A.length; n++) {
      A[n] = gammaln(al + n)
      B[n] = gammaln(be + n)
    }
    this.filled[k] = A.length
    return true
  }

  /** lnΓ(α + n) of slot k (after `ensure`). */
  tableA(k: number): Float64Array {
    return this.a[k]
  }

  tableB(k: number): Float64Array {
    return this.b[k]
  }
}
