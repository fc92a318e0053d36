/**
 * De-duplication of normalised states into "sites" (distinct points with multiplicity).
 *
 * After the §8.3 ECDF a normalised coordinate is an integer count / |C|, so two states coincide
 * exactly when their integer counts agree; the key cx·(|C|+1) + cy is exact (well below 2^53).
 * Working on sites is what makes the discrete states of §8.2 cheap: the smoother fit, the modulus
 * pairs and the k-NN index all scale with the number of distinct states, not of tasks.
 */
export interface Sites {
  /** Normalised coordinates of each site. */
  readonly x: Float64Array
  readonly y: Float64Array
  /** Tasks per site. */
  readonly count: Float64Array
  /** Σ Z per site. */
  readonly sumZ: Float64Array
  /** Site of each input row. */
  readonly siteOf: Int32Array
}

/**
 * @param cx @param cy per-row integer ECDF counts; @param scale |C| (x = cx/scale)
 * @param z per-row correctness (0/1)
 */
export function buildSites(cx: Int32Array, cy: Int32Array, z: Uint8Array, scale: number): Sites {
  const n = cx.length
  const index = new Map<number, number>()
  const siteOf = new Int32Array(n)
  const xs: number[] = []
  const ys: number[] = []
  const cnt: number[] = []
  const sz: number[] = []
  for (let i = 0; i < n; i++) {
    const key = cx[i] * (scale + 1) + cy[i]
    let s = index.get(key)
    if (s === undefined) {
      s = xs.length
      index.set(key, s)
      xs.push(cx[i] / scale)
      ys.push(cy[i] / scale)
      cnt.push(0)
      sz.push(0)
    }
    siteOf[i] = s
    cnt[s] += 1
    sz[s] += z[i]
  }
  return {
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    count: Float64Array.from(cnt),
    sumZ: Float64Array.from(sz),
    siteOf
  }
}

/** Number of distinct values of an integer array. */
export function distinctCount(v: Int32Array): number {
  return new Set(v).size
}
