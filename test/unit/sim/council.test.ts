import { describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import type { CouncilConfig } from '../../../src/main/sim/config'
import { generateCouncil, generateCouncilArray } from '../../../src/main/sim/council'
import { toJsonl } from '../../../src/main/sim/jsonl'
import { adversarialCouncil, cleanCouncil, cleanCouncilConfig, demoCouncil, sleeperCouncil } from '../../../src/main/sim/presets'
import { endorsements, traceErrors } from './check-trace'
import { endorsementAccuracy, round0Accuracy } from './measure'

const jsonl = (traces: Iterable<Trace>): string => Array.from(traces, toJsonl).join('\n')

/** Five seats, K = 4, correlated errors, per-group reliabilities, abstentions and contagion. */
const MIXED: CouncilConfig = {
  tasks: 4000,
  seed: 'mixed',
  rounds: 4,
  seats: [
    { id: 'S1', reliability: 0.8, reliabilityByGroup: { hard: 0.55 } },
    { id: 'S2', reliability: 0.65 },
    { id: 'S3', reliability: 0.5, conformity: 0.3 },
    { id: 'S4', reliability: 0.4, abstainRate: 0.1 },
    { id: 'S5', reliability: 0.9 }
  ],
  groups: [
    { name: 'easy', k: 4, weight: 3 },
    { name: 'hard', labels: ['x', 'y', 'z'], rounds: 2 }
  ],
  errorCorrelation: 0.6
}

describe('generateCouncil: determinism', () => {
  it('gives byte-identical JSONL for the same seed and different JSONL for another', () => {
    expect(jsonl(cleanCouncil({ tasks: 2000, seed: 5 }))).toBe(jsonl(cleanCouncil({ tasks: 2000, seed: 5 })))
    expect(jsonl(demoCouncil({ seed: 5 }))).toBe(jsonl(demoCouncil({ seed: 5 })))
    expect(jsonl(cleanCouncil({ tasks: 2000, seed: 5 }))).not.toBe(jsonl(cleanCouncil({ tasks: 2000, seed: 6 })))
    expect(jsonl(demoCouncil({ seed: 5 }))).not.toBe(jsonl(demoCouncil({ seed: 6 })))
  })

  it('never changes a move when text or confidences are switched on (separate PRNG streams)', () => {
    const strip = (t: Trace): Trace => ({ ...t, moves: t.moves.map(({ text: _t, confidence: _c, ...m }) => m) })
    const plain = generateCouncilArray({ ...MIXED, tasks: 500 })
    const dressed = generateCouncilArray({ ...MIXED, tasks: 500, text: true, confidence: true })
    expect(dressed.map(strip)).toEqual(plain)
    expect(dressed.every((t) => t.moves.every((m) => typeof m.text === 'string' && m.text.length > 0))).toBe(true)
  })

  it('streams lazily: a huge stream yields its first traces at once', () => {
    const it = cleanCouncil({ tasks: 1e9, seed: 1 })
    const first = [it.next().value, it.next().value] as Trace[]
    expect(first.map((t) => t.task)).toEqual(['binary-0000000001', 'binary-0000000002'])
  })
})

describe('generateCouncil: validity (docs/engine.md §1)', () => {
  const cases: [string, () => Iterable<Trace>][] = [
    ['clean', () => cleanCouncil({ tasks: 3000, seed: 1 })],
    ['adversarial', () => adversarialCouncil({ tasks: 3000, seed: 2 })],
    ['adversarial, dose 0.5', () => adversarialCouncil({ tasks: 3000, seed: 2, pWrong: 0.5 })],
    ['rotating', () => adversarialCouncil({ tasks: 3000, seed: 3, rotating: true })],
    ['sleeper', () => sleeperCouncil({ tasks: 3000, seed: 4 })],
    ['demo', () => demoCouncil({ seed: 5 })],
    ['mixed K, 5 seats, 4 rounds', () => generateCouncil({ ...MIXED, rotating: { seats: 2, pWrong: 0.7 } })]
  ]
  it.each(cases)('%s: every trace is valid and carries gold and seats', (_, make) => {
    const traces = Array.from(make())
    expect(traceErrors(traces)).toEqual([])
    for (const t of traces) {
      expect(t.candidates).toContain(t.gold)
      const seatIds = new Set(t.seats?.map((s) => s.id))
      expect(t.moves.every((m) => seatIds.has(m.seat))).toBe(true)
      // One move per seat per round (BDA D.5's natural volume): no seat out-talks the others.
      const rounds = 1 + Math.max(...t.moves.map((m) => m.round))
      expect(t.moves.length).toBe(seatIds.size * rounds)
    }
  })
})

describe('generateCouncil: reliability', () => {
  it('clean council: each seat’s round-0 accuracy is its reliability (±0.03), and so is every-round consistency at K = 2', () => {
    const traces = Array.from(cleanCouncil({ tasks: 4500, seed: 0 }))
    const r0 = round0Accuracy(traces)
    const all = endorsementAccuracy(traces)
    for (const [seat, r] of [['A1', 0.74], ['A2', 0.68], ['A3', 0.68]] as const) {
      expect(Math.abs((r0.get(seat) as number) - r)).toBeLessThan(0.03)
      expect(Math.abs((all.get(seat) as number) - r)).toBeLessThan(0.03)
    }
  })

  it('mixed K and per-group reliabilities: round-0 accuracy within ±0.03 of the configured value', () => {
    const traces = generateCouncilArray(MIXED)
    const byGroup = (g: string): Map<string, number> => round0Accuracy(traces.filter((t) => t.group === g))
    const easy = byGroup('easy')
    const hard = byGroup('hard')
    for (const s of MIXED.seats) {
      expect(Math.abs((easy.get(s.id) as number) - s.reliability)).toBeLessThan(0.03)
      const rh = s.reliabilityByGroup?.hard ?? s.reliability
      expect(Math.abs((hard.get(s.id) as number) - rh)).toBeLessThan(0.04) // a quarter of the tasks
    }
    expect(new Set(traces.filter((t) => t.group === 'easy').map((t) => t.candidates.length))).toEqual(new Set([4]))
    expect(traces.filter((t) => t.group === 'hard').every((t) => t.candidates.join() === 'x,y,z' && t.moves.at(-1)?.round === 1)).toBe(true)
  })

  it('correlated errors: wrong honest answers pile onto one distractor', () => {
    const share = (errorCorrelation: number): number => {
      let top = 0
      let wrong = 0
      for (const t of generateCouncil({ ...MIXED, tasks: 1500, errorCorrelation })) {
        const counts = new Map<string, number>()
        for (const m of t.moves) if (m.round === 0 && m.force === 'propose' && m.answer !== t.gold) counts.set(m.answer as string, (counts.get(m.answer as string) ?? 0) + 1)
        const n = [...counts.values()]
        wrong += n.reduce((a, b) => a + b, 0)
        top += n.length ? Math.max(...n) : 0
      }
      return top / wrong
    }
    expect(share(0.9)).toBeGreaterThan(share(0) + 0.15)
  })
})

describe('generateCouncil: contagion', () => {
  it('conformity makes seats end on the same answer more often', () => {
    /** Share of tasks whose seats' last +1 answers (docs/engine.md §8's social state) are unanimous. */
    const unanimous = (conformity: number): number => {
      const config = cleanCouncilConfig({ tasks: 3000, seed: 21 })
      config.seats = config.seats.map((s) => ({ ...s, conformity }))
      let n = 0
      for (const t of generateCouncil(config)) {
        const current = new Map<string, string | undefined>()
        for (const [j, e] of endorsements(t).entries()) {
          if (t.moves[j].force === 'retract') current.set(t.moves[j].seat, undefined)
          else if (e?.sign === 1) current.set(e.seat, e.cand)
        }
        const answers = [...current.values()]
        if (answers.length === 3 && new Set(answers).size === 1) n++
      }
      return n / 3000
    }
    expect(unanimous(0.8)).toBeGreaterThan(unanimous(0) + 0.1)
  })
})

describe('resolveCouncil: bad configs are refused', () => {
  const base = cleanCouncilConfig({ tasks: 10 })
  const bad: [string, CouncilConfig][] = [
    ['rounds 5', { ...base, rounds: 5 }],
    ['reliability > 1', { ...base, seats: [{ id: 'A', reliability: 1.2 }] }],
    ['duplicate seat ids', { ...base, seats: [{ id: 'A', reliability: 0.7 }, { id: 'A', reliability: 0.7 }] }],
    ['sleeper without a switch point', { ...base, seats: [{ id: 'A', reliability: 0.7, behaviour: 'sleeper' }] }],
    ['one candidate', { ...base, groups: [{ name: 'g', labels: ['only'] }] }],
    ['negative tasks', { ...base, tasks: -1 }],
    ['style out of range', { ...base, style: { challengeRate: 2 } }]
  ]
  it.each(bad)('%s — at the call, before any iteration', (_, config) => {
    expect(() => generateCouncil(config)).toThrow(RangeError)
  })
})
