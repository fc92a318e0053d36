import { describe, expect, it } from 'vitest'
import {
  buildCertificate,
  certificateMetrics,
  certify,
  computeBounds,
  concentration,
  type CalibrationTask,
  type RoundState,
  type ScoredTask
} from '../../../src/main/engine/certificate'
import { simulateCouncil, zOf } from './sim'

const GOOD: RoundState = { p1: 1, delta: 1 }
const BAD: RoundState = { p1: 0.5, delta: 0 }

/** n tasks over T rounds; even tasks sit at GOOD (always right), odd ones at BAD (always wrong). */
function twoCells(n: number, T: number, prefix = 'c'): CalibrationTask[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    states: Array.from({ length: T }, () => (i % 2 === 0 ? GOOD : BAD)),
    z: Array.from({ length: T }, () => (i % 2 === 0 ? 1 : 0))
  }))
}

function scored(id: string, states: RoundState[]): ScoredTask {
  return { id, states, answers: states.map((_, t) => `answer@${t}`) }
}

describe('certificate decisions (docs/engine.md §8.8–8.9)', () => {
  const cal = twoCells(1000, 3)

  it('acts at the FIRST round whose bound clears 1 − α, with that round’s answer', () => {
    const tasks = [
      scored('a', [BAD, GOOD, GOOD]),
      scored('b', [GOOD, BAD, GOOD]),
      scored('c', [BAD, BAD, BAD]),
      scored('d', [BAD, BAD, GOOD])
    ]
    const res = certify(cal, tasks, { kind: 'absolute', beta: 0.2 }, { bound: 'hoeffding' })
    expect(res.alpha).toBeCloseTo(0.15, 15)
    expect(res.reason).toBeNull()
    const [a, b, c, d] = res.tasks
    expect(a.decision).toBe('act')
    expect(a.stopRound).toBe(1)
    expect(a.answer).toBe('answer@1')
    expect(b.stopRound).toBe(0)
    expect(b.answer).toBe('answer@0')
    expect(d.stopRound).toBe(2)
    expect(c.decision).toBe('defer')
    expect(c.stopRound).toBeNull()
    expect(c.answer).toBe('answer@2') // deferred: still Ŷ at the last round
    expect(c.gap!).toBeGreaterThan(0)
    expect(a.gap!).toBeLessThanOrEqual(0)
    // The good cell: q̂ = 1, coinciding neighbourhood ⇒ bias exactly 0; the best k is the largest
    // k still inside the cell (the smaller c_k).
    const good = a.bound[1]!
    expect(a.why).not.toBeNull()
    expect(a.why!.bias).toBe(0)
    expect(a.why!.qhat).toBe(1)
    expect(good).toBeCloseTo(1 - a.why!.conc, 15)
    expect(a.why!.conc).toBeCloseTo(concentration(a.why!.k, 3, 3, 0.03), 15)
    // argmax_t L_t, first on ties: rounds 1 and 2 tie, round 1 is reported.
    expect(a.bound[1]).toBe(a.bound[2])
    expect(a.why!.round).toBe(1)
  })

  it('defers everything with a reason when α ≤ 0, still reporting bound, k, gap and why', () => {
    const res = certify(cal, [scored('a', [BAD, GOOD, GOOD])], { kind: 'absolute', beta: 0.05 })
    expect(res.reason).toBe('alpha-nonpositive')
    const t = res.tasks[0]
    expect(t.decision).toBe('defer')
    expect(t.reason).toBe('alpha-nonpositive')
    expect(t.bound.every((b) => b !== null)).toBe(true)
    expect(t.k.every((k) => k !== null)).toBe(true)
    expect(t.gap).toBeCloseTo(1 - res.alpha! - Math.max(...t.bound.map((b) => b!)), 15)
    expect(t.why).not.toBeNull()
    // Even a bound that would clear any threshold does not act.
    expect(certify(cal, [scored('a', [GOOD, GOOD, GOOD])], { kind: 'absolute', beta: 0.04 }).tasks[0].decision).toBe('defer')
  })

  it('defers everything with a reason when K_used is empty (|D_loc| < 128), bound null', () => {
    const small = twoCells(150, 3) // D_loc = 120
    const res = certify(small, [scored('a', [GOOD, GOOD, GOOD])], { kind: 'absolute', beta: 0.5 })
    expect(res.kUsed).toEqual([])
    expect(res.reason).toBe('no-usable-k')
    const t = res.tasks[0]
    expect(t.decision).toBe('defer')
    expect(t.reason).toBe('no-usable-k')
    expect(t.bound).toEqual([null, null, null])
    expect(t.k).toEqual([null, null, null])
    expect(t.gap).toBeNull()
    expect(t.why).toBeNull()
  })

  it('leaves a scored task that is in C out of D_loc for its own query', () => {
    // 200 coinciding calibration states, 150 right; D_loc = 160 tasks.
    const C: CalibrationTask[] = Array.from({ length: 200 }, (_, i) => ({
      id: `s${i}`,
      states: [GOOD],
      z: [i < 150 ? 1 : 0]
    }))
    const cert = buildCertificate(C, { bound: 'hoeffding' })
    expect(cert.locIds.length).toBe(160)
    const locRight = cert.locIds.filter((id) => Number(id.slice(1)) < 150).length
    const selfRight = cert.locIds.find((id) => Number(id.slice(1)) < 150)!
    const selfWrong = cert.locIds.find((id) => Number(id.slice(1)) >= 150)!
    const modTask = cert.modIds[0]
    const table = computeBounds(cert, [
      { id: 'fresh', states: [GOOD] },
      { id: selfRight, states: [GOOD] },
      { id: selfWrong, states: [GOOD] },
      { id: modTask, states: [GOOD] }
    ])
    const c = concentration(128, 1, 1, 0.03)
    expect(table.qhat[0]).toBe(locRight / 160)
    expect(table.qhat[1]).toBe((locRight - 1) / 159)
    expect(table.qhat[2]).toBe(locRight / 159)
    expect(table.qhat[3]).toBe(locRight / 160) // a D_mod task is not in D_loc: nothing to leave out
    expect(table.L[1]).toBeCloseTo((locRight - 1) / 159 - c, 15)
    expect(table.bias[1]).toBe(0)
  })

  it('K_used is computed without the task itself: |D_loc| = 128 empties it for a D_loc task only', () => {
    const C: CalibrationTask[] = Array.from({ length: 160 }, (_, i) => ({ id: `e${i}`, states: [GOOD], z: [1] }))
    const cert = buildCertificate(C)
    expect(cert.locIds.length).toBe(128)
    expect(cert.kUsed).toEqual([128])
    const res = certify(C, [scored('fresh', [GOOD]), scored(cert.locIds[0], [GOOD])], { kind: 'absolute', beta: 0.5 })
    expect(res.tasks[0].decision).toBe('act')
    expect(res.tasks[1].decision).toBe('defer')
    expect(res.tasks[1].reason).toBe('no-usable-k')
    expect(res.tasks[1].bound).toEqual([null])
  })

  it('rejects ragged inputs', () => {
    expect(() => certify(cal, [scored('x', [GOOD])], { kind: 'absolute', beta: 0.2 })).toThrow(/expected T = 3/)
    expect(() => buildCertificate([{ id: 'a', states: [GOOD], z: [2] }])).toThrow(/0 or 1/)
  })
})

describe('a clean simulated council (docs/engine.md §8 check: the default state acts)', () => {
  it('acts on a good share at β = 0.2 with the social state, within budget', () => {
    const clean = { easyShare: 0.7, easyAcc: 0.92, hardAcc: 0.5, herd: 0.3, distractor: 0.3 }
    const cal = simulateCouncil(4000, 'clean-cal', clean)
    const test = simulateCouncil(4000, 'clean-test', { ...clean, idPrefix: 's' })
    // How clean: accuracy of the unanimous state at the last round.
    let unanimous = 0
    let unanimousRight = 0
    for (const t of cal) {
      if (t.states[3].p1 === 1) {
        unanimous++
        unanimousRight += t.z[3]
      }
    }
    const res = certify(cal, test, { kind: 'absolute', beta: 0.2 })
    const m = certificateMetrics(res.tasks, zOf(test), res.T, 0.2)
    console.log(
      `clean council: unanimous share ${(unanimous / cal.length).toFixed(3)} right ${(unanimousRight / unanimous).toFixed(3)}; ` +
        `smoothers ${res.smoothers.join(',')}; Act ${m.act.toFixed(3)} Acc|Act ${m.accAct?.toFixed(3)} WA ${m.wa.toFixed(4)} WA/β ${m.waOverBeta?.toFixed(3)} Rnd ${m.rnd.toFixed(2)}`
    )
    expect(unanimousRight / unanimous).toBeGreaterThan(0.97)
    expect(m.act).toBeGreaterThan(0.5)
    expect(m.wa).toBeLessThanOrEqual(0.2)
    expect(m.accAct!).toBeGreaterThan(0.9)
    // Acting saves rounds.
    expect(m.rnd).toBeLessThan(4)
  })
})
