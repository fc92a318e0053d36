import { describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import { DEMO_GROUPS, demoCouncil } from '../../../src/main/sim/presets'
import { traceErrors } from './check-trace'
import { alwaysAgainstGold, round0Accuracy } from './measure'

describe('demoCouncil', () => {
  const traces: Trace[] = Array.from(demoCouncil({ seed: 0 }))

  it('is a valid, demo-sized stream with every group, K, force and seat', () => {
    expect(traceErrors(traces)).toEqual([])
    expect(traces.length).toBeGreaterThanOrEqual(600)
    expect(traces.length).toBeLessThanOrEqual(1500)
    for (const [group, k] of Object.entries(DEMO_GROUPS)) {
      const mine = traces.filter((t) => t.group === group)
      expect(mine.length).toBeGreaterThan(100)
      expect(mine.every((t) => t.candidates.length === k)).toBe(true)
    }
    const forces = new Set(traces.flatMap((t) => t.moves.map((m) => m.force)))
    expect([...forces].sort()).toEqual(['abstain', 'challenge', 'concede', 'propose', 'retract', 'vote'])
    const rounds = new Set(traces.map((t) => 1 + Math.max(...t.moves.map((m) => m.round))))
    expect([...rounds].sort()).toEqual([3, 4])
    const seats = traces[0].seats ?? []
    expect(seats.length).toBe(5)
    expect(new Set(seats.map((s) => s.model)).size).toBe(5)
  })

  it('reads like a debate: real questions, text on every move naming its answer or target', () => {
    expect(new Set(traces.map((t) => t.question)).size).toBeGreaterThan(300)
    expect(traces.find((t) => t.group === 'Arithmetic')?.question).toMatch(/\d/)
    for (const t of traces)
      for (const m of t.moves) {
        expect(m.text).toBeTruthy()
        if (m.force === 'propose' && m.round === 0) expect(m.text).toContain(m.answer)
        if (m.force === 'challenge' || m.force === 'concede') expect(m.text).toContain(m.target)
        if (m.force !== 'abstain' && m.force !== 'retract') expect(m.confidence).toBeGreaterThan(0.5)
      }
  })

  it('has a persistent adversary (A4) and a sleeper (A5) that turns at 80 % of the stream', () => {
    expect(traces.every((t) => alwaysAgainstGold(t, 'A4'))).toBe(true)
    const turn = Math.round(0.8 * traces.length)
    expect(traces.slice(turn).every((t) => alwaysAgainstGold(t, 'A5'))).toBe(true)
    expect(round0Accuracy(traces.slice(0, turn)).get('A5')).toBeGreaterThan(0.6)
    // Honest seats keep their configured order of strength.
    const acc = round0Accuracy(traces)
    expect(acc.get('A1')).toBeGreaterThan(acc.get('A3') as number)
  })
})
