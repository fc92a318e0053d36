import { describe, expect, it } from 'vitest'
import { generateCouncilArray } from '../../../src/main/sim/council'
import { adversarialCouncil, cleanCouncilConfig, sleeperCouncil } from '../../../src/main/sim/presets'
import { alwaysAgainstGold, round0Accuracy } from './measure'

describe('persistent adversary', () => {
  it('always proposes a wrong answer in round 0 and never endorses in the gold’s favour (K = 2)', () => {
    const traces = Array.from(adversarialCouncil({ tasks: 3000, seed: 11 }))
    for (const t of traces) {
      const r0 = t.moves.find((m) => m.seat === 'A3' && m.round === 0)
      expect(r0?.force).toBe('propose')
      expect(r0?.answer).not.toBe(t.gold)
      expect(alwaysAgainstGold(t, 'A3')).toBe(true)
    }
    const acc = round0Accuracy(traces)
    expect(Math.abs((acc.get('A1') as number) - 0.74)).toBeLessThan(0.03)
    expect(Math.abs((acc.get('A2') as number) - 0.68)).toBeLessThan(0.03)
    // It argues: it challenges the gold's supporters rather than only repeating itself.
    expect(traces.filter((t) => t.moves.some((m) => m.seat === 'A3' && m.force === 'challenge')).length).toBeGreaterThan(1500)
  })

  it('is always against the gold at K = 4 too', () => {
    const config = { ...cleanCouncilConfig({ tasks: 2000, seed: 12 }), groups: [{ name: 'mc', k: 4 }] }
    config.seats = [...config.seats.slice(0, 2), { id: 'A3', reliability: 0.7, behaviour: 'adversarial' as const }]
    const traces = generateCouncilArray(config)
    expect(traces.every((t) => alwaysAgainstGold(t, 'A3'))).toBe(true)
  })

  it('dose pWrong = 0.5 halves its round-0 accuracy', () => {
    const acc = round0Accuracy(adversarialCouncil({ tasks: 4000, seed: 13, pWrong: 0.5 }))
    expect(Math.abs((acc.get('A3') as number) - 0.5 * 0.68)).toBeLessThan(0.03)
  })
})

describe('rotating adversary', () => {
  it('corrupts a fresh seat on every task: each seat is hostile on about a third of them', () => {
    const traces = Array.from(adversarialCouncil({ tasks: 4500, seed: 14, rotating: true }))
    for (const t of traces) expect(['A1', 'A2', 'A3'].some((s) => alwaysAgainstGold(t, s))).toBe(true)
    const acc = round0Accuracy(traces)
    for (const [seat, r] of [['A1', 0.74], ['A2', 0.68], ['A3', 0.68]] as const)
      expect(Math.abs((acc.get(seat) as number) - (2 / 3) * r)).toBeLessThan(0.03)
  })
})

describe('sleeper', () => {
  it('is honest before the switch point (turnShare) and adversarial from it on', () => {
    const traces = Array.from(sleeperCouncil({ tasks: 6000, seed: 15, turnShare: 0.5 }))
    const before = traces.slice(0, 3000)
    const after = traces.slice(3000)
    expect(Math.abs((round0Accuracy(before).get('A3') as number) - 0.68)).toBeLessThan(0.03)
    expect(after.every((t) => alwaysAgainstGold(t, 'A3'))).toBe(true)
    // Honest seats are untouched by the turn.
    expect(Math.abs((round0Accuracy(after).get('A1') as number) - 0.74)).toBeLessThan(0.03)
  })

  it('switches exactly at an explicit task index', () => {
    const config = cleanCouncilConfig({ tasks: 3000, seed: 16 })
    config.seats = [config.seats[0], config.seats[1], { id: 'A3', reliability: 0.9, behaviour: 'sleeper', turnAt: 1234 }]
    const traces = generateCouncilArray(config)
    expect(traces.slice(1234).every((t) => alwaysAgainstGold(t, 'A3'))).toBe(true)
    // At reliability 0.9 an honest seat is against the gold in every move on only ≈ 0.1³ of tasks.
    const honestWrong = traces.slice(0, 1234).filter((t) => alwaysAgainstGold(t, 'A3')).length
    expect(honestWrong).toBeLessThan(20)
    expect(Math.abs((round0Accuracy(traces.slice(0, 1234)).get('A3') as number) - 0.9)).toBeLessThan(0.03)
  })
})
