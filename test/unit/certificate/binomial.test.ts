import gammaln from '@stdlib/math-base-special-gammaln'
import { describe, expect, it } from 'vitest'
import { buildActOrDefer, fitCouncil, SeatIndex } from '../../../src/main/engine'
import {
  BINOMIAL_KS,
  binomialLevel,
  boundMemo,
  buildCertificate,
  certify,
  clopperPearsonLower,
  computeBounds,
  concentration,
  DEFAULT_KS,
  resolveOptions,
  type BoundKind,
  type CalibrationTask,
  type RoundState
} from '../../../src/main/engine/certificate'
import { cleanTallies } from './council'
import { simulateCouncil } from './sim'

/** docs/engine.md §8.7 `binomial`: L^CP(x, n) − b, with n the tie-complete neighbourhood and δ' = δ/(T·|𝒦_used|). */

/** P(Bin(n, p) ≥ x), summed term by term in logs: an independent check of the Beta quantile. */
function upperTail(x: number, n: number, p: number): number {
  let sum = 0
  for (let j = x; j <= n; j++) {
    sum += Math.exp(gammaln(n + 1) - gammaln(j + 1) - gammaln(n - j + 1) + j * Math.log(p) + (n - j) * Math.log1p(-p))
  }
  return sum
}

describe('L^CP, the Clopper–Pearson lower bound', () => {
  it('meets the contract’s checks at δ′ = 0.0025 (T·|𝒦_used| = 12, δ = 0.03)', () => {
    const level = binomialLevel(0.03, 4, 3)
    expect(level).toBeCloseTo(0.0025, 15)
    expect(clopperPearsonLower(128, 128, level).toFixed(4)).toBe('0.9543')
    expect(clopperPearsonLower(120, 128, level).toFixed(4)).toBe('0.8529')
    expect(clopperPearsonLower(0, 128, level)).toBe(0)
  })

  it('equals δ′^(1/n) at x = n', () => {
    for (const level of [0.0025, 0.03 / 24, 0.01, 0.2]) {
      for (const n of [1, 2, 17, 128, 513, 4096, 20_000]) expect(clopperPearsonLower(n, n, level)).toBeCloseTo(level ** (1 / n), 12)
    }
  })

  it('is the p with P(Bin(n, p) ≥ x) = δ′', () => {
    for (const [x, n] of [[1, 128], [64, 128], [120, 128], [300, 512], [1000, 1024], [3, 7]]) {
      for (const level of [0.0025, 0.01]) {
        const p = clopperPearsonLower(x, n, level)
        expect(upperTail(x, n, p)).toBeCloseTo(level, 8)
        // A hair lower and the tail falls below δ′: p is the smallest value the data cannot rule out.
        expect(upperTail(x, n, p * (1 - 1e-6))).toBeLessThan(level)
      }
    }
  })

  it('grows with x and with δ′, and shrinks with n at fixed x', () => {
    for (const n of [128, 700]) {
      let prev = -1
      for (let x = 0; x <= n; x++) {
        const v = clopperPearsonLower(x, n, 0.0025)
        expect(v).toBeGreaterThan(prev)
        prev = v
      }
    }
    for (const [x, n] of [[50, 128], [128, 128]]) {
      expect(clopperPearsonLower(x, n, 0.001)).toBeLessThan(clopperPearsonLower(x, n, 0.0025))
      expect(clopperPearsonLower(x, n, 0.0025)).toBeLessThan(clopperPearsonLower(x, n, 0.05))
      expect(clopperPearsonLower(x, n + 1, 0.0025)).toBeLessThan(clopperPearsonLower(x, n, 0.0025))
    }
  })

  it('is never looser than Hoeffding at the same n and level', () => {
    let checked = 0
    for (const level of [0.03 / 24, 0.0025, 0.01, 0.05]) {
      for (const n of [1, 5, 32, 128, 200, 257, 512, 1024, 2048, 4096]) {
        const step = Math.max(1, Math.floor(n / 64))
        const xs = new Set<number>([n])
        for (let x = 0; x <= n; x += step) xs.add(x)
        for (const x of xs) {
          const hoeffding = x / n - Math.sqrt(Math.log(1 / level) / (2 * n))
          expect(clopperPearsonLower(x, n, level)).toBeGreaterThanOrEqual(hoeffding)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(1000)
  })

  it('refuses what is not a binomial count', () => {
    expect(() => clopperPearsonLower(5, 4, 0.01)).toThrow(RangeError)
    expect(() => clopperPearsonLower(0, 0, 0.01)).toThrow(RangeError)
    expect(() => clopperPearsonLower(1, 4, 0)).toThrow(RangeError)
  })
})

describe('options: the bound and its 𝒦', () => {
  it('binomial by default with 𝒦 up to 4096; hoeffding keeps (128, 256, 512); an explicit 𝒦 wins', () => {
    expect(resolveOptions().bound).toBe('binomial')
    expect(resolveOptions().ks).toEqual([...BINOMIAL_KS])
    expect(BINOMIAL_KS).toEqual([128, 256, 512, 1024, 2048, 4096])
    expect(resolveOptions({ bound: 'hoeffding' }).ks).toEqual([...DEFAULT_KS])
    expect(resolveOptions({ bound: 'binomial', ks: [256, 128] }).ks).toEqual([128, 256])
    expect(() => resolveOptions({ bound: 'bernstein' as BoundKind })).toThrow(/bound must be binomial or hoeffding/)
  })
})

const GOOD: RoundState = { p1: 1, delta: 1 }
const BAD: RoundState = { p1: 0.5, delta: 0 }

/** One state per task for T rounds, always right at GOOD and always wrong at BAD. */
function cells(n: number, T: number, isGood: (i: number) => boolean, prefix = 'c'): CalibrationTask[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    states: Array.from({ length: T }, () => (isGood(i) ? GOOD : BAD)),
    z: Array.from({ length: T }, () => (isGood(i) ? 1 : 0))
  }))
}

describe('the binomial bound in the certificate', () => {
  it('counts every tie at h in n: L = L^CP(x, n) − b, why.n = the whole coinciding cell', () => {
    const C = cells(1000, 3, (i) => i % 2 === 0)
    const cert = buildCertificate(C)
    expect(cert.options.bound).toBe('binomial')
    expect(cert.kUsed).toEqual([128, 256, 512]) // |D_loc| = 800: the larger k need more D_loc
    const goodInLoc = cert.locIds.filter((id) => Number(id.slice(1)) % 2 === 0).length
    expect(goodInLoc).toBeGreaterThan(256)
    expect(goodInLoc).toBeLessThan(512)
    const res = certify(C, [{ id: 'q', states: [BAD, GOOD, GOOD], answers: ['a', 'b', 'c'] }], { kind: 'absolute', beta: 0.2 })
    const t = res.tasks[0]
    const level = binomialLevel(0.03, 3, 3)
    // k = 128 and 256 both stop inside the GOOD cell (h = 0), whose every state ties: n = the cell, not k.
    expect(t.k[1]).toBe(128)
    expect(t.n[1]).toBe(goodInLoc)
    expect(t.bound[1]).toBe(clopperPearsonLower(goodInLoc, goodInLoc, level))
    expect(t.bound[1]).toBeCloseTo(level ** (1 / goodInLoc), 12)
    expect(t.why).toEqual({ round: 1, k: 128, n: goodInLoc, qhat: 1, bias: 0, conc: 1 - t.bound[1]! })
    expect(t.decision).toBe('act')
    expect(t.stopRound).toBe(1)
    // The BAD cell: x = 0 ⇒ L^CP = 0.
    expect(t.bound[0]).toBeLessThanOrEqual(0)
  })

  it('reports q̂ − bias − conc = L at every scored task of a simulated council', () => {
    const cal = simulateCouncil(3000, 'binomial-why-cal')
    const test = simulateCouncil(1500, 'binomial-why-test', { idPrefix: 's' })
    const res = certify(cal, test, { kind: 'absolute', beta: 0.2 })
    let nAboveK = 0
    for (const t of res.tasks) {
      const w = t.why!
      expect(w.qhat - w.bias - w.conc).toBeCloseTo(t.bound[w.round]!, 12)
      expect(w.n).toBe(t.n[w.round])
      expect(w.k).toBe(t.k[w.round])
      for (let r = 0; r < res.T; r++) expect(t.n[r]!).toBeGreaterThanOrEqual(t.k[r]!)
      if (w.n! > w.k) nAboveK++
    }
    expect(nAboveK).toBeGreaterThan(0) // discrete states: ties at h are common
  })

  it('uses the larger k only when D_loc holds them, and divides δ by T·|𝒦_used|', () => {
    const mid = buildCertificate(cells(1300, 1, () => true)) // |D_loc| = 1040
    expect(mid.kUsed).toEqual([128, 256, 512, 1024])
    expect(buildCertificate(cells(1300, 1, () => true), { bound: 'hoeffding' }).kUsed).toEqual([128, 256, 512])
    const big = cells(5200, 1, () => true) // |D_loc| = 4160
    const cert = buildCertificate(big)
    expect(cert.kUsed).toEqual([128, 256, 512, 1024, 2048, 4096])
    const table = computeBounds(cert, [{ id: 'fresh', states: [GOOD] }])
    // One coinciding cell: every k's neighbourhood is all of D_loc; the smallest k wins the tie.
    expect(table.neighbours[0]).toBe(4160)
    expect(table.k[0]).toBe(128)
    expect(table.L[0]).toBe(clopperPearsonLower(4160, 4160, 0.03 / 6))
  })

  it('leaves a scored task that is in C out of its own neighbourhood, and out of 𝒦_used’s count', () => {
    const C: CalibrationTask[] = Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, states: [GOOD], z: [i < 150 ? 1 : 0] }))
    const cert = buildCertificate(C)
    const right = cert.locIds.filter((id) => Number(id.slice(1)) < 150).length
    const self = cert.locIds.find((id) => Number(id.slice(1)) < 150)!
    const table = computeBounds(cert, [{ id: 'fresh', states: [GOOD] }, { id: self, states: [GOOD] }])
    const level = binomialLevel(0.03, 1, 1)
    expect(Array.from(table.neighbours)).toEqual([160, 159])
    expect(table.L[0]).toBe(clopperPearsonLower(right, 160, level))
    expect(table.L[1]).toBe(clopperPearsonLower(right - 1, 159, level))
  })

  it('is never looser than Hoeffding on the same 𝒦, task by task and round by round', () => {
    const cal = simulateCouncil(3000, 'binomial-vs-hoeffding-cal', { state: 'posterior' })
    const test = simulateCouncil(1000, 'binomial-vs-hoeffding-test', { state: 'posterior', idPrefix: 's' })
    const bounds = (bound: BoundKind): Float64Array => computeBounds(buildCertificate(cal, { bound, ks: DEFAULT_KS }), test).L
    const binomial = bounds('binomial')
    const hoeffding = bounds('hoeffding')
    let tighter = 0
    for (let o = 0; o < binomial.length; o++) {
      expect(binomial[o]).toBeGreaterThanOrEqual(hoeffding[o])
      if (binomial[o] > hoeffding[o]) tighter++
    }
    expect(tighter).toBeGreaterThan(binomial.length / 2)
  })

  it('hoeffding stays L = q̂ − b − c_k with c_k = sqrt(ln(T·|𝒦_used|/δ)/(2k)), to the bit', () => {
    const cal = simulateCouncil(3000, 'hoeffding-exact-cal')
    const test = simulateCouncil(500, 'hoeffding-exact-test', { idPrefix: 's' })
    const cert = buildCertificate(cal, { bound: 'hoeffding' })
    const table = computeBounds(cert, test)
    for (let o = 0; o < table.L.length; o++) {
      expect(table.conc[o]).toBe(concentration(table.k[o], cert.T, cert.kUsed.length, 0.03))
      expect(table.L[o]).toBe(table.qhat[o] - table.bias[o] - table.conc[o])
    }
  })
})

describe('bounds in pages', () => {
  it('a memo shared by several calls gives every page the table one call over all tasks gives, self-excluded tasks too', () => {
    const cal = simulateCouncil(3000, 'memo-cal', { state: 'posterior' })
    const test = [...simulateCouncil(900, 'memo-test', { state: 'posterior', idPrefix: 's' }), ...cal.slice(0, 300)]
    for (const bound of ['binomial', 'hoeffding'] as const) {
      const cert = buildCertificate(cal, { bound })
      const whole = computeBounds(cert, test)
      const memo = boundMemo(cert)
      const T = cert.T
      for (let at = 0; at < test.length; at += 250) {
        const page = computeBounds(cert, test.slice(at, at + 250), memo)
        for (const key of ['L', 'k', 'neighbours', 'qhat', 'bias', 'conc'] as const) {
          expect(Array.from(page[key])).toEqual(Array.from(whole[key].subarray(at * T, (at + page.n) * T)))
        }
      }
      expect(memo.byState.some((m) => m.size > 0) && memo.bySelf.some((m) => m.size > 0)).toBe(true)
      expect(() => computeBounds(buildCertificate(cal, { bound }), test.slice(0, 5), memo)).toThrow(/another certificate/)
    }
  })
})

describe('the bound through act-or-defer', () => {
  const seats = new SeatIndex()
  const C = cleanTallies(seats, 1500, 11, 'c')
  const S = cleanTallies(seats, 500, 12, 's')
  const fits = fitCouncil({ calibration: C, seed: 0 })

  it('ActOrDeferConfig.bound picks the bound (binomial by default) and each verdict carries n', () => {
    for (const bound of [undefined, 'binomial', 'hoeffding'] as const) {
      const aod = buildActOrDefer(fits, { bound })
      expect(aod.info().bound).toBe(bound ?? 'binomial')
      expect(aod.certificate.options.bound).toBe(bound ?? 'binomial')
      const batch = aod.prepare(S)
      const mine = aod.decide(batch, { kind: 'absolute', beta: 0.2 })
      const core = certify(aod.calibration, batch.tasks, { kind: 'absolute', beta: 0.2 }, { seed: 0, bound })
      expect(mine.tasks.map((d) => [d.decision, d.bound, d.k, d.n, d.why])).toEqual(core.tasks.map((d) => [d.decision, d.bound, d.k, d.n, d.why]))
      for (const d of mine.tasks) expect(d.why!.n).toBe(d.n[d.why!.round])
    }
  })
})
