import { describe, expect, it } from 'vitest'
import {
  certificateMetrics,
  certify,
  LAMBDA_GRID,
  lambdaHalves,
  selectLambda,
  type CalibrationTask
} from '../../../src/main/engine/certificate'
import { createRng } from '../../../src/main/sim/prng'
import { simulateCouncil, zOf } from './sim'

const clean = { easyShare: 0.7, easyAcc: 0.92, hardAcc: 0.5, herd: 0.3, distractor: 0.3 }
// Cleaner still: WA/β ≤ 0.10 on C2 is a demanding feasibility rule (AoD reports 9–12% usage).
const cleaner = { easyShare: 0.7, easyAcc: 0.92, hardAcc: 0.5, herd: 0.2, distractor: 0.2 }

describe('λ = auto (docs/engine.md §8 Budget; AoD B.5)', () => {
  it('selects the feasible λ with the highest Act on C2 (ties → smaller λ), then β = λ*·ê_T on all of C', () => {
    const cal = simulateCouncil(4000, 'lambda-cal', cleaner)
    const test = simulateCouncil(2000, 'lambda-test', { ...cleaner, idPrefix: 's' })
    // The Hoeffding bound's λ search (its figures): the binomial bound acts earlier on this council,
    // and its WA/β on C2 stays above 0.10 at every λ.
    const res = certify(cal, test, { kind: 'auto' }, { bound: 'hoeffding' })
    const search = res.lambdaSearch!
    console.log(
      `λ search: ê_T(C1) ${search.baseError.toFixed(4)}; ` +
        search.candidates
          .filter((c) => !c.skipped)
          .map((c) => `${c.lambda}:${c.act.toFixed(3)}/${c.waOverBeta?.toFixed(3)}${c.feasible ? '*' : ''}`)
          .join(' ')
    )
    expect(search.sizeC1).toBe(2000)
    expect(search.sizeC2).toBe(2000)
    expect(search.candidates).toHaveLength(LAMBDA_GRID.length)
    expect(res.lambda).not.toBeNull()
    const chosen = search.candidates.find((c) => c.lambda === res.lambda)!
    expect(chosen.feasible).toBe(true)
    expect(chosen.act).toBeGreaterThan(0)
    expect(chosen.waOverBeta!).toBeLessThanOrEqual(0.1)
    for (const c of search.candidates) {
      expect(c.skipped).toBe(c.beta > 0.99)
      if (c.skipped) continue
      expect(c.feasible).toBe(c.act > 0 && c.waOverBeta !== null && c.waOverBeta <= 0.1)
      if (c.feasible) {
        expect(c.act).toBeLessThanOrEqual(chosen.act)
        if (c.act === chosen.act) expect(c.lambda).toBeGreaterThanOrEqual(chosen.lambda)
      }
    }
    expect(res.beta).toBeCloseTo(res.lambda! * res.finalRoundError, 15)
    expect(res.reason).toBeNull()
    const m = certificateMetrics(res.tasks, zOf(test), res.T, res.beta)
    console.log(`λ* ${res.lambda} β ${res.beta!.toFixed(4)}: Act ${m.act.toFixed(3)} Acc|Act ${m.accAct?.toFixed(3)} WA/β ${m.waOverBeta?.toFixed(3)}`)
    expect(m.act).toBeGreaterThan(0)
  })

  it('reports "insufficient evidence" when acting always overspends: a uniformly 90%-right council', () => {
    // One state for everyone, 90% right: the bound acts on all or nothing, and acting on all costs
    // WA = 0.1 — more than 10% of any β ≤ 5·ê_T = 0.5.
    const rng = createRng('uniform')
    const cal: CalibrationTask[] = Array.from({ length: 2000 }, (_, i) => ({
      id: `u${i}`,
      states: [
        { p1: 2 / 3, delta: 1 / 3 },
        { p1: 1, delta: 1 }
      ],
      z: Array.from({ length: 2 }, () => (rng.chance(0.9) ? 1 : 0))
    }))
    const scored = cal.slice(0, 5).map((c) => ({ id: `x-${c.id}`, states: c.states, answers: ['a', 'b'] }))
    const res = certify(cal, scored, { kind: 'auto' })
    const acting = res.lambdaSearch!.candidates.filter((c) => c.act > 0)
    console.log(`uniform council: acting λ ${acting.map((c) => `${c.lambda}:${c.waOverBeta?.toFixed(3)}`).join(' ')}`)
    expect(acting.length).toBeGreaterThan(0) // it could act — only the budget usage rule refuses
    expect(res.lambdaSearch!.candidates.every((c) => !c.feasible)).toBe(true)
    expect(res.lambda).toBeNull()
    expect(res.beta).toBeNull()
    expect(res.alpha).toBeNull()
    expect(res.reason).toBe('insufficient evidence')
    for (const t of res.tasks) {
      expect(t.decision).toBe('defer')
      expect(t.reason).toBe('insufficient evidence')
      expect(t.answer).toBe('b')
      // The bound is still computable on all of C; the gap needs α and is not.
      expect(t.bound.every((b) => b !== null)).toBe(true)
      expect(t.why).not.toBeNull()
      expect(t.gap).toBeNull()
    }
  })

  it('reports "insufficient evidence" when C1 is too small for any k (|D_loc(C1)| < 128)', () => {
    const cal = simulateCouncil(300, 'tiny', cleaner) // C1 = 150 → D_loc(C1) = 120
    const res = certify(cal, cal.slice(0, 3), { kind: 'auto' })
    expect(res.reason).toBe('insufficient evidence')
    expect(res.lambdaSearch!.candidates.every((c) => c.act === 0)).toBe(true)
    expect(res.kUsed).toEqual([128]) // all of C: D_loc = 240
    expect(res.tasks.every((t) => t.decision === 'defer' && t.bound.every((b) => b !== null))).toBe(true)
  })

  it('uses C1 = first ⌊|C|/2⌋ by the lambda hash, reusing C’s states', () => {
    const cal = simulateCouncil(601, 'halves', clean)
    const sel = selectLambda(cal, {}, 4)
    const { c1 } = lambdaHalves(
      cal.map((c) => c.id),
      '0'
    )
    expect(sel.sizeC1).toBe(300)
    expect(sel.sizeC2).toBe(301)
    const e1 = 1 - Array.from(c1, (i) => cal[i].z[3]).reduce((a, v) => a + v, 0) / c1.length
    expect(sel.baseError).toBeCloseTo(e1, 15)
  })

  it('relative budget: β = λ·ê_T', () => {
    const cal = simulateCouncil(1000, 'rel', clean)
    const res = certify(cal, [], { kind: 'relative', lambda: 2 })
    expect(res.beta).toBeCloseTo(2 * res.finalRoundError, 15)
    expect(res.lambda).toBe(2)
  })
})

describe('the paper’s three-seat council (social p1 ∈ {1/3, 2/3, 1}: isotonic fallback)', () => {
  it('falls back to isotonic and still acts on unanimous states', () => {
    const three = { ...clean, seats: 3 }
    const cal = simulateCouncil(4000, 'three-cal', three)
    const test = simulateCouncil(4000, 'three-test', { ...three, idPrefix: 's' })
    const res = certify(cal, test, { kind: 'absolute', beta: 0.2 })
    expect(res.smoothers.every((s) => s === 'isotonic')).toBe(true)
    const m = certificateMetrics(res.tasks, zOf(test), res.T, 0.2)
    console.log(`three seats: Act ${m.act.toFixed(3)} Acc|Act ${m.accAct?.toFixed(3)} WA ${m.wa.toFixed(4)} Rnd ${m.rnd.toFixed(2)}`)
    expect(m.act).toBeGreaterThan(0.3)
    expect(m.wa).toBeLessThanOrEqual(0.2)
  })
})
