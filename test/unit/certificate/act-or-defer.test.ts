import { describe, expect, it } from 'vitest'
import {
  buildActOrDefer, buildTallies, certifyTallies, cvSelect, fitAggregator, fitCouncil, foldsOf, MethodRefused, outOfFoldFits, roundsOf,
  SeatIndex, summarize, taskRounds, tieBreak
} from '../../../src/main/engine'
import { certify, certificateMetrics, isSpotChecked } from '../../../src/main/engine/certificate'
import { cleanTallies, mv, trace } from './council'

const FIXED = { b: 0.7, kappa: 1, s: 32 }

describe('per-round states and answers from tallies (docs/engine.md §8.1–8.2)', () => {
  const seats = new SeatIndex()
  const cal = cleanTallies(seats, 300, 1, 'c')
  const agg = fitAggregator('per-agent', cal, FIXED, 0)

  it('T = 1 + the largest round in C; a shorter trace repeats its last state, a longer one is cut', () => {
    const gap = buildTallies(trace('gap', ['true', 'false'], [mv('a', 0, 'A1', 'propose', 'true'), mv('b', 2, 'A2', 'propose', 'false')]), seats)
    const long = buildTallies(trace('long', ['true', 'false'], [0, 1, 2, 3, 4].map((r) => mv(`m${r}`, r, `A${(r % 3) + 1}`, 'propose', r < 2 ? 'true' : 'false'))), seats)
    expect(roundsOf([gap])).toBe(3)
    expect(roundsOf(cal)).toBe(3)
    const g = taskRounds(agg, gap, 4, 'social', 0)
    expect(g.states[1]).toEqual(g.states[0]) // no move in round 1: round 0's state
    expect(g.states[3]).toEqual(g.states[2]) // past its last round: repeated
    expect(g.states[0]).toEqual({ p1: 1, delta: 1 })
    expect(g.states[2]).toEqual({ p1: 0.5, delta: 0 })
    const l = taskRounds(agg, long, 2, 'posterior', 0)
    expect(l.states).toHaveLength(2)
    const p = agg.posteriorAt(long, 1)
    expect(l.answers[1]).toBe(tieBreak(p, 2, 'long', 0))
  })

  it('Ŷ_t is the aggregator’s tie-broken answer even under the social state (an adversary cannot capture it)', () => {
    // Two seats that were always wrong on C, one always right: the social majority is the bad pair's.
    const s2 = new SeatIndex()
    const C = Array.from({ length: 200 }, (_, i) =>
      buildTallies(trace(`c${i}`, ['x', 'y'], [mv('1', 0, 'G', 'propose', i % 2 ? 'x' : 'y'), mv('2', 0, 'B1', 'propose', i % 2 ? 'y' : 'x'), mv('3', 0, 'B2', 'propose', i % 2 ? 'y' : 'x')], i % 2 ? 'x' : 'y'), s2)
    )
    const a = fitAggregator('per-agent', C, { b: 0.7, kappa: 4, s: 8 }, 0)
    const task = buildTallies(trace('q', ['x', 'y'], [mv('1', 0, 'G', 'propose', 'y'), mv('2', 0, 'B1', 'propose', 'x'), mv('3', 0, 'B2', 'propose', 'x')]), s2)
    const r = taskRounds(a, task, 1, 'social', 0)
    expect(r.states[0].p1).toBeCloseTo(2 / 3, 15) // the state is the bad pair's share …
    expect(task.candidates[r.answers[0]]).toBe('y') // … the answer is the aggregator's
  })

  it('the posterior state rounds p1 and Δ of the raw posterior to the 0.05 grid', () => {
    for (const t of cal.slice(0, 50)) {
      const r = taskRounds(agg, t, 3, 'posterior', 0)
      r.states.forEach((s, round) => {
        const p = Array.from(agg.posteriorAt(t, round)).sort((a, b) => b - a)
        expect(s.p1).toBe(Math.floor(20 * p[0] + 0.5) / 20)
        expect(s.delta).toBe(Math.floor(20 * (p[0] - p[1]) + 0.5) / 20)
      })
    }
  })
})

describe('out-of-fold calibration states (docs/engine.md §8.2, §7)', () => {
  const seats = new SeatIndex()
  const C = cleanTallies(seats, 600, 2, 'c')

  it('each C task is scored by the fit of the other folds, with hyperparameters re-selected inside (seed + 1 + j)', () => {
    const fits = fitCouncil({ method: 'per-agent', calibration: C, seed: 3 })
    const ref = outOfFoldFits('per-agent', C, 5, 3, null)
    expect(Array.from(fits.fold)).toEqual(Array.from(foldsOf(C, 5, 3)))
    expect(fits.outOfFold.map((a) => a?.hyper)).toEqual(ref.aggregators.map((a) => a?.hyper))
    const aod = buildActOrDefer(fits, { state: 'posterior' })
    let differsFromDeployed = 0
    C.forEach((t, i) => {
      const own = taskRounds(ref.aggregators[fits.fold[i]]!, t, 3, 'posterior', 3)
      expect(aod.calibration[i].states).toEqual(own.states)
      expect(Array.from(aod.calibration[i].z)).toEqual(Array.from(own.answers, (a) => (a === t.gold ? 1 : 0)))
      const deployed = taskRounds(fits.deployed, t, 3, 'posterior', 3)
      if (JSON.stringify(deployed.states) !== JSON.stringify(own.states)) differsFromDeployed++
    })
    expect(differsFromDeployed).toBeGreaterThan(0) // never the in-sample (deployed) states
    expect(fits.deployed.hyper).toEqual(cvSelect('per-agent', C, 3).hyper)
  })

  it('extra labels (escalations) train every fold and the deployed fit but never join C', () => {
    const extra = cleanTallies(seats, 200, 4, 'e')
    const fits = fitCouncil({ method: 'per-agent', calibration: C, extraLabeled: extra, seed: 0, hyper: FIXED })
    expect(fits.calibration).toHaveLength(C.length)
    const j = fits.fold[0]
    const train = [...C.filter((_, i) => fits.fold[i] !== j), ...extra]
    const ref = fitAggregator('per-agent', train, FIXED, 0)
    const probe = C[0]
    expect(Array.from(fits.outOfFold[j]!.posteriorAt(probe))).toEqual(Array.from(ref.posteriorAt(probe)))
    expect(Array.from(fits.deployed.posteriorAt(probe))).toEqual(Array.from(fitAggregator('per-agent', [...C, ...extra], FIXED, 0).posteriorAt(probe)))
  })

  it('a re-decide that passes the selection a fit made gets the very same fits, without searching', () => {
    const extra = cleanTallies(seats, 150, 7, 'e')
    for (const method of ['standing-vote', 'per-agent'] as const) {
      for (const extraLabeled of [[], extra]) {
        const searched = fitCouncil({ method, calibration: C, extraLabeled, seed: 2 })
        const info = buildActOrDefer(searched).info()
        const reused = fitCouncil({ method, calibration: C, extraLabeled, seed: 2, selected: { deployed: searched.deployed.hyper, outOfFold: info.outOfFoldHyper } })
        expect(reused.outOfFold.map((a) => a?.hyper)).toEqual(searched.outOfFold.map((a) => a?.hyper))
        for (const t of [...C.slice(0, 40), ...extra.slice(0, 10)]) {
          expect(Array.from(reused.deployed.posteriorAt(t))).toEqual(Array.from(searched.deployed.posteriorAt(t)))
          reused.outOfFold.forEach((a, j) => expect(Array.from(a?.posteriorAt(t) ?? [])).toEqual(Array.from(searched.outOfFold[j]?.posteriorAt(t) ?? [])))
        }
      }
    }
  })

  it('a given selection is used as given: no search overrides it', () => {
    const pick = { b: 0.6, kappa: 0 }
    const fits = fitCouncil({ method: 'standing-vote', calibration: C, seed: 2, selected: { deployed: pick, outOfFold: [pick, pick, pick, pick, pick] } })
    expect(fits.deployed.hyper).toEqual(pick)
    expect(fits.outOfFold.map((a) => a?.hyper)).toEqual([pick, pick, pick, pick, pick])
    expect(fitCouncil({ method: 'standing-vote', calibration: C, seed: 2 }).deployed.hyper).not.toEqual(pick)
  })

  it('refuses an unlabeled calibration set', () => {
    expect(() => fitCouncil({ calibration: C.map((t) => ({ ...t, gold: -1 })) })).toThrow(MethodRefused)
  })
})

describe('act-or-defer over a fitted council (docs/engine.md §8.7–8.9, §10)', () => {
  const seats = new SeatIndex()
  const C = cleanTallies(seats, 2000, 5, 'c')
  const S = cleanTallies(seats, 2000, 6, 's')
  const fits = fitCouncil({ calibration: C, seed: 0 })

  it('decides exactly as the certificate core on the same states, for every kind of budget', () => {
    for (const state of ['social', 'posterior'] as const) {
      const aod = buildActOrDefer(fits, { state })
      const batch = aod.prepare(S)
      for (const budget of [{ kind: 'absolute', beta: 0.2 }, { kind: 'relative', lambda: 2.5 }, { kind: 'auto' }] as const) {
        const mine = aod.decide(batch, budget)
        const core = certify(aod.calibration, batch.tasks, budget, { seed: 0 })
        expect(mine.budget.beta).toBe(core.beta)
        expect(mine.budget.reason).toBe(core.reason)
        expect(mine.tasks.map((d) => [d.decision, d.stopRound, d.answer, d.gap])).toEqual(core.tasks.map((d) => [d.decision, d.stopRound, d.answer, d.gap]))
      }
    }
  })

  it('the default state acts on a clean council, within budget', () => {
    const r = certifyTallies({ calibration: C, scored: S, budget: { kind: 'absolute', beta: 0.2 }, seed: 0 })
    console.log(`clean council via tallies (social, β 0.2): ${JSON.stringify(r.summary)}`)
    expect(r.certificate.state).toBe('social')
    expect(r.summary.act).toBeGreaterThan(0.3)
    expect(r.summary.wa!).toBeLessThanOrEqual(0.2)
    expect(r.summary.reason).toBeNull()
  })

  it('where states coincide (k-NN radius 0) the bias is exactly 0', () => {
    const aod = buildActOrDefer(fits)
    const cert = aod.certificate
    const loc = new Set(cert.locIds)
    // D_loc tasks per (round, state): a query whose cell holds ≥ k of them has h = 0 for that k.
    const cell = (t: number, p1: number, d: number): number => aod.calibration.filter((c) => loc.has(c.id) && c.states[t].p1 === p1 && c.states[t].delta === d).length
    let checked = 0
    for (const d of aod.decide(aod.prepare(S.slice(0, 300)), { kind: 'absolute', beta: 0.2 }).tasks) {
      const w = d.why!
      const s = d.states[w.round]
      if (cell(w.round, s.p1, s.delta) >= w.k) {
        expect(w.bias).toBe(0)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('activation grows monotonically with β (one prepared batch, a β sweep)', () => {
    for (const state of ['social', 'posterior'] as const) {
      const aod = buildActOrDefer(fits, { state })
      const batch = aod.prepare(S)
      const acts = Array.from({ length: 12 }, (_, i) => summarize(aod.decide(batch, { kind: 'absolute', beta: (i + 1) / 20 }), batch).act)
      console.log(`${state}: Act over β = 0.05..0.60: ${acts.map((a) => a.toFixed(3)).join(' ')}`)
      for (let i = 1; i < acts.length; i++) expect(acts[i]).toBeGreaterThanOrEqual(acts[i - 1])
      expect(acts[acts.length - 1]).toBeGreaterThan(0)
    }
  })

  it('flags spot-checks by the task-id hash, whatever the decision and the batch', () => {
    const aod = buildActOrDefer(fits, { spotRate: 0.05 })
    const all = aod.decide(S.slice(0, 400), { kind: 'absolute', beta: 0.2 }).tasks
    const alone = aod.decide(S.slice(200, 201), { kind: 'absolute', beta: 0.2 }).tasks
    all.forEach((d) => expect(d.spotCheck).toBe(isSpotChecked(d.task, 0.05, 0)))
    expect(alone[0].spotCheck).toBe(all[200].spotCheck)
    expect(all.some((d) => d.spotCheck)).toBe(true)
    expect(buildActOrDefer(fits, { spotRate: 1 }).decide(S.slice(0, 5), { kind: 'auto' }).tasks.every((d) => d.spotCheck)).toBe(true)
  })

  it('summarises with the contract’s metrics, and leaves gold-based ones null when a task has no gold', () => {
    const aod = buildActOrDefer(fits)
    const batch = aod.prepare(S)
    const d = aod.decide(batch, { kind: 'absolute', beta: 0.25 })
    const z = S.map((t, i) => Uint8Array.from(batch.tasks[i].answers, (a) => (a === t.candidates[t.gold] ? 1 : 0)))
    const m = certificateMetrics(d.tasks, z, 3, 0.25)
    expect(summarize(d, batch)).toEqual({ act: m.act, accAct: m.accAct, wa: m.wa, waOverBeta: m.waOverBeta, rnd: m.rnd, beta: 0.25, alpha: d.budget.alpha, lambda: null, reason: null })
    const partial = aod.prepare([...S.slice(0, 10), { ...S[10], gold: -1 }])
    const s = summarize(aod.decide(partial, { kind: 'absolute', beta: 0.25 }), partial)
    expect([s.accAct, s.wa, s.waOverBeta]).toEqual([null, null, null])
    expect(s.act).toBeGreaterThanOrEqual(0)
  })
})
