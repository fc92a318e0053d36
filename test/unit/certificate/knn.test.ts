import { describe, expect, it } from 'vitest'
import { EmpiricalModulus, LocalIndex } from '../../../src/main/engine/certificate'
import { createRng } from '../../../src/main/sim/prng'

/** Brute force of §8.7: h² = k-th smallest d², neighbourhood = every row with d² ≤ h². */
function brute(
  cx: Int32Array,
  cy: Int32Array,
  z: Uint8Array,
  scale: number,
  qx: number,
  qy: number,
  ks: number[],
  exclude: number
): { h2: number[]; count: number[]; sumZ: number[] } {
  const d2: number[] = []
  const rows: number[] = []
  for (let i = 0; i < cx.length; i++) {
    if (i === exclude) continue
    const dx = cx[i] / scale - qx
    const dy = cy[i] / scale - qy
    d2.push(dx * dx + dy * dy)
    rows.push(i)
  }
  const sorted = [...d2].sort((a, b) => a - b)
  const h2 = ks.map((k) => sorted[k - 1])
  const count = h2.map((h) => d2.filter((d) => d <= h).length)
  const sumZ = h2.map((h) => rows.reduce((s, r, j) => s + (d2[j] <= h ? z[r] : 0), 0))
  return { h2, count, sumZ }
}

describe('k-NN neighbourhoods on one flatbush index (docs/engine.md §8.7)', () => {
  it('includes every coinciding state tied at the k-th distance (h = 0)', () => {
    // 300 tasks at P, 400 at distance 0.1, 400 far away; scale 1000.
    const cx: number[] = []
    const cy: number[] = []
    const z: number[] = []
    const put = (x: number, y: number, m: number, right: number): void => {
      for (let i = 0; i < m; i++) {
        cx.push(x)
        cy.push(y)
        z.push(i < right ? 1 : 0)
      }
    }
    put(500, 500, 300, 290)
    put(600, 500, 400, 200)
    put(100, 100, 400, 0)
    const idx = new LocalIndex(Int32Array.from(cx), Int32Array.from(cy), Uint8Array.from(z), 1000)
    const r = idx.query(0.5, 0.5, [128, 256, 512], -1)
    expect(Array.from(r.h2)).toEqual([0, 0, (0.6 - 0.5) ** 2])
    // k = 128 and 256: all 300 coinciding states, not 128 / 256 of them.
    expect(Array.from(r.count)).toEqual([300, 300, 700])
    expect(Array.from(r.sumZ)).toEqual([290, 290, 490])
  })

  it('includes every state tied at a positive k-th distance, whatever the storage order', () => {
    // Query at A (empty); 200 coinciding states at B, 0.2 away: for k = 128 the radius is 0.2 and
    // all 200 are in; also a tie across two distinct states at the same squared distance.
    const rows: [number, number, number][] = []
    for (let i = 0; i < 200; i++) rows.push([300, 500, i % 2])
    for (let i = 0; i < 60; i++) rows.push([500, 300, 1]) // same d² as B from A (axes swapped)
    for (let i = 0; i < 500; i++) rows.push([900, 900, 0])
    const rng = createRng(4)
    for (let trial = 0; trial < 5; trial++) {
      const perm = rows.map((r) => r)
      for (let i = perm.length - 1; i > 0; i--) {
        const j = rng.int(i + 1)
        ;[perm[i], perm[j]] = [perm[j], perm[i]]
      }
      const idx = new LocalIndex(
        Int32Array.from(perm, (r) => r[0]),
        Int32Array.from(perm, (r) => r[1]),
        Uint8Array.from(perm, (r) => r[2]),
        1000
      )
      const res = idx.query(0.5, 0.5, [128], -1)
      const dB = (0.3 - 0.5) ** 2 + (0.5 - 0.5) ** 2
      const dC = (0.5 - 0.5) ** 2 + (0.3 - 0.5) ** 2
      expect(dB).toBe(dC) // the two clusters tie exactly in floating point
      expect(res.h2[0]).toBe(dB)
      expect(res.count[0]).toBe(260)
      expect(res.sumZ[0]).toBe(160)
    }
  })

  it('matches brute force exactly on coarse grids full of ties, with and without leaving a row out', () => {
    const rng = createRng(99)
    for (let trial = 0; trial < 12; trial++) {
      const n = 300 + rng.int(900)
      const grid = 4 + rng.int(30)
      const scale = grid
      const cx = new Int32Array(n)
      const cy = new Int32Array(n)
      const z = new Uint8Array(n)
      for (let i = 0; i < n; i++) {
        cx[i] = rng.int(grid + 1)
        cy[i] = rng.int(grid + 1)
        z[i] = rng.chance(0.7) ? 1 : 0
      }
      const idx = new LocalIndex(cx, cy, z, scale)
      const ks = [128, 256, 512].filter((k) => k <= n - 1)
      for (let q = 0; q < 25; q++) {
        const qx = rng.int(grid + 1) / scale
        const qy = rng.int(grid + 1) / scale
        const exclude = q % 2 === 0 ? -1 : rng.int(n)
        const got = idx.query(qx, qy, ks, exclude)
        const want = brute(cx, cy, z, scale, qx, qy, ks, exclude)
        expect(Array.from(got.h2)).toEqual(want.h2)
        expect(Array.from(got.count)).toEqual(want.count)
        expect(Array.from(got.sumZ)).toEqual(want.sumZ)
      }
    }
  })

  it('matches brute force on continuous states (the search fallback and the list path)', () => {
    const rng = createRng(5)
    const n = 2000
    const scale = 100000
    const cx = new Int32Array(n)
    const cy = new Int32Array(n)
    const z = new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      cx[i] = rng.int(scale + 1)
      cy[i] = rng.int(scale + 1)
      z[i] = rng.chance(0.5) ? 1 : 0
    }
    const idx = new LocalIndex(cx, cy, z, scale)
    for (let q = 0; q < 50; q++) {
      const exclude = q % 3 === 0 ? rng.int(n) : -1
      const qx = exclude >= 0 ? cx[exclude] / scale : rng.next()
      const qy = exclude >= 0 ? cy[exclude] / scale : rng.next()
      const got = idx.query(qx, qy, [128, 256, 512], exclude)
      const want = brute(cx, cy, z, scale, qx, qy, [128, 256, 512], exclude)
      expect(Array.from(got.count)).toEqual(want.count)
      expect(Array.from(got.sumZ)).toEqual(want.sumZ)
      expect(Array.from(got.h2)).toEqual(want.h2)
    }
  })

  it('leaves the querying task out of its own neighbourhood', () => {
    // 200 coinciding states, 150 right; the task at row 0 (right) queries itself.
    const cx = new Int32Array(200).fill(5)
    const cy = new Int32Array(200).fill(5)
    const z = Uint8Array.from({ length: 200 }, (_, i) => (i < 150 ? 1 : 0))
    const idx = new LocalIndex(cx, cy, z, 10)
    expect(Array.from(idx.query(0.5, 0.5, [128], -1).count)).toEqual([200])
    const self = idx.query(0.5, 0.5, [128], 0)
    expect(self.count[0]).toBe(199)
    expect(self.sumZ[0]).toBe(149)
    const wrongSelf = idx.query(0.5, 0.5, [128], 199)
    expect(wrongSelf.sumZ[0]).toBe(150)
  })
})

describe('empirical modulus (docs/engine.md §8.6)', () => {
  it('is exact at r = 0 (coinciding pairs only) and never under-estimates for r > 0', () => {
    const rng = createRng(8)
    const n = 400
    const x = new Float64Array(n)
    const y = new Float64Array(n)
    const q = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      x[i] = rng.int(40) / 40
      y[i] = rng.int(40) / 40
      q[i] = 1 / (1 + Math.exp(-(4 * x[i] - 2 + Math.sin(9 * y[i]))))
    }
    const m = new EmpiricalModulus(x, y, q, 256)
    expect(m.at(0)).toBe(0) // q̃ is a function of the state
    const exact = (r: number): number => {
      let best = 0
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) {
          const d = Math.sqrt((x[i] - x[j]) ** 2 + (y[i] - y[j]) ** 2)
          if (d <= r) best = Math.max(best, Math.abs(q[i] - q[j]))
        }
      return best
    }
    for (const r of [0.001, 0.025, 0.0251, 0.05, 0.1, 0.2, 0.5, 1, 1.5]) {
      const e = exact(r)
      expect(m.at(r)).toBeGreaterThanOrEqual(e)
      // Over-estimation is bounded by one bin: ω̂(r) ≤ exact ω̂(r + bin width).
      expect(m.at(r)).toBeLessThanOrEqual(exact(r + m.binWidth + 1e-12))
    }
    // Monotone in r.
    let prev = 0
    for (let i = 0; i <= 300; i++) {
      const v = m.at(i / 200)
      expect(v).toBeGreaterThanOrEqual(prev)
      prev = v
    }
  })

  it('counts a disagreement between coinciding rows at r = 0', () => {
    const m = new EmpiricalModulus(Float64Array.from([0.5, 0.5, 0.9]), Float64Array.from([0.5, 0.5, 0.9]), Float64Array.from([0.2, 0.7, 0.9]), 64)
    expect(m.at(0)).toBeCloseTo(0.5, 15)
    expect(m.at(1)).toBeCloseTo(0.7, 15)
    expect(new EmpiricalModulus(new Float64Array(0), new Float64Array(0), new Float64Array(0), 8).at(0.3)).toBe(0)
  })
})
