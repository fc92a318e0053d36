import betaln from '@stdlib/math-base-special-betaln'
import { describe, expect, it } from 'vitest'
import { lnF, normalizeLog } from '../../../src/main/engine/ln-f'
import { OneCoinAggregator } from '../../../src/main/engine/one-coin'
import { seatWeight } from '../../../src/main/engine/prior-means'
import type { Reliabilities } from '../../../src/main/engine/reliability'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies, C_AT, N_AT, recordWidth } from '../../../src/main/engine/tallies'
import type { Move } from '@shared/trace'
import { m, rng, trace } from './helpers'

const noFit: Reliabilities = { r: new Float64Array(0), seen: new Uint8Array(0), rBar: 0.5, evidence: new Float64Array(0) }
const cands = (K: number) => Array.from({ length: K }, (_, i) => `c${i + 1}`)

/** N seats, each with one propose of c1. */
function unanimous(K: number, N: number) {
  return trace('u', cands(K), Array.from({ length: N }, (_, i) => m(`m${i}`, 0, `S${i}`, 'propose', { answer: 'c1' })))
}

describe('one-coin posterior (docs/engine.md §3, BDA C.8)', () => {
  it('reproduces the C.8 table: Beta(1,1), N unanimous seats, K = 2, 3, 4', () => {
    const agg = new OneCoinAggregator('shared', { b: 0.5, s: 2 }, noFit) // Beta(1, 1)
    const table: Record<number, string[]> = {}
    for (const K of [2, 3, 4]) table[K] = [1, 2, 3, 5, 10, 20].map((N) => agg.posteriorAt(buildTallies(unanimous(K, N), new SeatIndex()))[0].toFixed(4))
    expect(table[2]).toEqual(['0.5000', '0.5000', '0.5000', '0.5000', '0.5000', '0.5000'])
    expect(table[3]).toEqual(['0.5000', '0.6667', '0.8000', '0.9412', '0.9981', '1.0000'])
    expect(table[4]).toEqual(['0.5000', '0.7500', '0.9000', '0.9878', '0.9999', '1.0000'])
  })

  it('K = 3, prior mean 0.7, one propose: (0.700, 0.150, 0.150); without (K−1): (0.538, 0.231, 0.231)', () => {
    const t = buildTallies(unanimous(3, 1), new SeatIndex())
    for (const s of [2, 10, 64]) {
      const p = new OneCoinAggregator('shared', { b: 0.7, s }, noFit).posteriorAt(t)
      expect([...p].map((x) => x.toFixed(3))).toEqual(['0.700', '0.150', '0.150'])
      // The broken variant: the same Beta marginal without the −(N − e)·ln(K − 1) term.
      const broken = Float64Array.from([0, 1, 2], (g) => betaln(0.7 * s + (g === 0 ? 1 : 0), 0.3 * s + (g === 0 ? 0 : 1)) - betaln(0.7 * s, 0.3 * s))
      normalizeLog(broken)
      expect([...broken].map((x) => x.toFixed(3))).toEqual(['0.538', '0.231', '0.231'])
    }
  })

  it('the K = 2 ceiling: Beta(8.8, 7.2), 3 seats, round(0.8·N) consistent — 0.646 … 0.998, below σ(3·1.6·ln 4)', () => {
    const agg = new OneCoinAggregator('shared', { b: 0.55, s: 16 }, noFit) // α = 8.8, β = 7.2
    const bound = 1 / (1 + Math.exp(-3 * 1.6 * Math.log(4)))
    expect(bound.toFixed(4)).toBe('0.9987')
    const post = (N: number): number => {
      const good = Math.round(0.8 * N)
      const moves = ['A', 'B', 'C'].flatMap((seat) =>
        Array.from({ length: N }, (_, j) => m(`${seat}${j}`, 0, seat, 'propose', { answer: j < good ? 'yes' : 'no' })))
      return agg.posteriorAt(buildTallies(trace('c', ['yes', 'no'], moves), new SeatIndex()))[0]
    }
    expect([1, 5, 20, 100, 500].map((N) => post(N).toFixed(3))).toEqual(['0.646', '0.810', '0.969', '0.996', '0.998'])
    for (const N of [1, 5, 20, 100, 500, 5000]) expect(post(N)).toBeLessThan(bound)
    expect(post(5000)).toBeGreaterThan(0.998) // N = 5000 > the table cap: the gammaln fallback path
  })

  it('K = 2, one endorsement per seat: log-odds = Σ_i w_i·(±1), w_i = ln(μ_i/(1 − μ_i)) (BDA Prop. 1)', () => {
    const rand = rng(42)
    let checked = 0
    for (let rep = 0; rep < 300; rep++) {
      const I = 1 + Math.floor(rand() * 7)
      const seats = new SeatIndex()
      const moves = Array.from({ length: I }, (_, i) => m(`m${i}`, 0, `S${i}`, 'propose', { answer: rand() < 0.5 ? 'x' : 'y' }))
      const t = buildTallies(trace(`w${rep}`, ['x', 'y'], moves), seats)
      const r = Float64Array.from({ length: I }, () => rand())
      const rel: Reliabilities = { r, seen: new Uint8Array(I).fill(1), rBar: r.reduce((a, b) => a + b, 0) / I, evidence: new Float64Array(I) }
      const agg = new OneCoinAggregator('per-agent', { b: 0.52 + 0.4 * rand(), kappa: 4 * rand(), s: 1 + 100 * rand() }, rel)
      const p = agg.posteriorAt(t)
      let score = 0
      for (let s = 0; s < I; s++) score += seatWeight(agg.muOf(t.seats[s])) * (t.vote0[s] === 0 ? 1 : -1)
      expect(Math.log(p[0] / p[1])).toBeCloseTo(score, 9)
      if (Math.abs(score) > 1e-9) {
        expect(p[0] > p[1]).toBe(score > 0)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(250)
  })

  it('the lnΓ-table kernel equals the betaln reference Σ_i ln F_i(g) on random multi-move traces', () => {
    const rand = rng(7)
    for (let rep = 0; rep < 100; rep++) {
      const K = 2 + Math.floor(rand() * 4)
      const C = cands(K)
      const moves: Move[] = []
      for (let j = 0; j < 1 + Math.floor(rand() * 40); j++) {
        const seat = `S${Math.floor(rand() * 4)}`
        const u = rand()
        if (u < 0.5 || moves.length === 0) moves.push(m(`m${j}`, j, seat, 'propose', { answer: C[Math.floor(rand() * K)] }))
        else if (u < 0.7) moves.push(m(`m${j}`, j, seat, 'challenge', { target: moves[Math.floor(rand() * moves.length)].id }))
        else if (u < 0.9) moves.push(m(`m${j}`, j, seat, 'retract'))
        else moves.push(m(`m${j}`, j, seat, 'abstain'))
      }
      const t = buildTallies(trace(`k${rep}`, C, moves), new SeatIndex())
      const r = Float64Array.from({ length: 4 }, () => rand())
      const agg = new OneCoinAggregator('tempered', { b: 0.6, kappa: 2, s: 8, tau: 0.75 }, { r, seen: new Uint8Array(4).fill(1), rBar: 0.5, evidence: new Float64Array(4) })
      for (const round of [0, 10, Infinity]) {
        const cut = t.R === 0 ? -1 : t.rounds.filter((x) => x <= round).length - 1
        const ref = new Float64Array(K)
        const W = recordWidth(K)
        for (let s = 0; s < t.S && cut >= 0; s++) {
          const off = (cut * t.S + s) * W
          const N = t.counts[off + N_AT]
          if (N === 0) continue
          const mu = agg.muOf(t.seats[s])
          for (let g = 0; g < K; g++) ref[g] += 0.75 * lnF(8 * mu, 8 * (1 - mu), t.counts[off + C_AT + g], N, t.counts[off + C_AT + K + g], K)
        }
        normalizeLog(ref)
        const p = agg.posteriorAt(t, round)
        for (let g = 0; g < K; g++) expect(p[g]).toBeCloseTo(ref[g], 12)
      }
    }
  })
})
