import { describe, expect, it } from 'vitest'
import { hashMod } from '../../../src/main/engine/hash'
import { bootstrapDraws, hasTimeOrder, seatDrift, type DriftTask } from '../../../src/main/engine/certificate'
import { createRng } from '../../../src/main/sim/prng'

/** n labeled tasks in time order; each seat makes 3 endorsements per task. */
function council(n: number, seed: string): DriftTask[] {
  const rng = createRng(seed)
  const tasks: DriftTask[] = []
  const recentStart = n - Math.floor(0.2 * n)
  for (let i = 0; i < n; i++) {
    const seats: Record<string, { consistent: number; total: number }> = {}
    const draw = (r: number): { consistent: number; total: number } => {
      let c = 0
      for (let e = 0; e < 3; e++) if (rng.chance(r)) c++
      return { consistent: c, total: 3 }
    }
    seats.sleeper = draw(i < recentStart ? 0.85 : 0.2)
    seats.stable = draw(0.8)
    // Moves in only every 10th task: drifts too, but each part holds < 20 tasks with a move.
    if (i % 10 === 0) seats.sparse = draw(i < recentStart ? 0.9 : 0.1)
    tasks.push({ id: `L${i}`, time: 1000 + i, seats })
  }
  return tasks
}

describe('seat drift (docs/engine.md §9)', () => {
  const tasks = council(500, 'drift')
  const report = seatDrift(tasks)
  const by = new Map(report.map((r) => [r.seat, r]))

  it('flags a sleeper seat (0.85 → 0.2 in the recent 20%) and not a stable one', () => {
    for (const r of report) {
      console.log(
        `${r.seat}: recent ${r.recent.toFixed(3)} rest ${r.rest.toFixed(3)} diff ${r.diff.toFixed(3)} floor ${r.floor.toFixed(4)} ` +
          `tasks ${r.recentTasks}/${r.restTasks} flagged ${r.flagged}`
      )
    }
    const sleeper = by.get('sleeper')!
    expect(sleeper.recentTasks).toBe(100)
    expect(sleeper.restTasks).toBe(400)
    expect(sleeper.flagged).toBe(true)
    expect(sleeper.diff).toBeLessThan(-0.5)
    expect(by.get('stable')!.flagged).toBe(false)
    expect(Math.abs(by.get('stable')!.diff)).toBeLessThan(2 * by.get('stable')!.floor)
  })

  it('does not flag a seat with fewer than 20 moved tasks in a part, however large the change', () => {
    const sparse = by.get('sparse')!
    expect(sparse.recentTasks).toBe(10)
    expect(Math.abs(sparse.diff)).toBeGreaterThan(2 * sparse.floor)
    expect(sparse.flagged).toBe(false)
  })

  it('uses the draw rule H(seed:boot:b:j) mod m, deterministically', () => {
    const d = bootstrapDraws(0, 200, 37)
    for (const [b, j] of [
      [0, 0],
      [0, 36],
      [17, 5],
      [199, 36]
    ]) {
      expect(d[b * 37 + j]).toBe(hashMod(`0:boot:${b}:${j}`, 37))
    }
    expect(bootstrapDraws(3, 5, 11)[4 * 11 + 10]).toBe(hashMod(`3:boot:4:10`, 11))
    expect(seatDrift(tasks)).toEqual(report)
  })

  it('reproduces the noise floor from the rule by hand', () => {
    const small = council(60, 'small') // recent 12, rest 48
    const seat = 'stable'
    const recentRows = small.slice(48)
    const restRows = small.slice(0, 48)
    const r = (rows: DriftTask[], idx: (j: number) => number, m: number): number => {
      let c = 0
      let N = 0
      for (let j = 0; j < m; j++) {
        const e = rows[idx(j)].seats[seat]
        c += e.consistent
        N += e.total
      }
      return (c + 1) / (N + 2)
    }
    const diffs: number[] = []
    for (let b = 0; b < 200; b++) {
      diffs.push(
        r(recentRows, (j) => hashMod(`5:boot:${b}:${j}`, 12), 12) - r(restRows, (j) => hashMod(`5:boot:${b}:${j}`, 48), 48)
      )
    }
    const mean = diffs.reduce((a, v) => a + v, 0) / 200
    const sd = Math.sqrt(diffs.reduce((a, v) => a + (v - mean) ** 2, 0) / 199)
    const got = seatDrift(small, { seed: 5 }).find((s) => s.seat === seat)!
    expect(got.floor).toBeCloseTo(sd, 14)
    expect(got.diff).toBeCloseTo(r(recentRows, (j) => j, 12) - r(restRows, (j) => j, 48), 14)
  })

  it('splits by label time, ties in time keeping input order', () => {
    // 10 tasks, all at the same time: the recent part is the last 2 in input order.
    const same: DriftTask[] = Array.from({ length: 10 }, (_, i) => ({
      time: 5,
      seats: { a: { consistent: i >= 8 ? 0 : 2, total: 2 } }
    }))
    const rep = seatDrift(same)[0]
    expect(rep.recent).toBe(1 / 6) // (0 + 1) / (4 + 2)
    expect(rep.rest).toBe(17 / 18) // (16 + 1) / (16 + 2)
    // Out-of-order input is sorted by time.
    const shuffled = [...same.slice(8).map((t) => ({ ...t, time: 9 })), ...same.slice(0, 8)]
    expect(seatDrift(shuffled)[0].recent).toBe(1 / 6)
  })

  it('reports "no time order" instead of a verdict when more than half of the labels share one time, figures unchanged', () => {
    // The sleeper council with every label stamped at one time (imported at once, sorted as the
    // file was): the split still falls on the same rows, but no seat may be flagged.
    const oneTime = tasks.map((t) => ({ ...t, time: 7 }))
    const flat = seatDrift(oneTime)
    for (const [i, r] of flat.entries()) {
      const timed = report[i]
      expect(r.noTimeOrder).toBe(true)
      expect(r.flagged).toBe(false)
      // Bit-for-bit the figures of the timed run (same rows in each part).
      expect([r.recent, r.rest, r.diff, r.floor, r.recentTasks, r.restTasks]).toEqual([timed.recent, timed.rest, timed.diff, timed.floor, timed.recentTasks, timed.restTasks])
    }
    expect(report.every((r) => !r.noTimeOrder)).toBe(true)
    expect(by.get('sleeper')!.flagged).toBe(true)
  })

  it('judges time order by the most common time: exactly half shared still has an order, one more has none', () => {
    expect(hasTimeOrder([])).toBe(true)
    expect(hasTimeOrder([1, 2, 3, 4])).toBe(true)
    expect(hasTimeOrder([5, 5, 1, 2])).toBe(true) // 2 of 4: not more than half
    expect(hasTimeOrder([5, 5, 5, 2])).toBe(false) // 3 of 4
    expect(hasTimeOrder([1, 1, 2, 2, 3, 3])).toBe(true) // many ties, none over half
    // Half plus one label at one time, the rest spread: the sleeper is no longer judged.
    const n = tasks.length
    const mostlyOne = tasks.map((t, i) => ({ ...t, time: i <= n / 2 ? 0 : t.time }))
    expect(seatDrift(mostlyOne).every((r) => r.noTimeOrder && !r.flagged)).toBe(true)
    const halfOne = tasks.map((t, i) => ({ ...t, time: i < n / 2 ? 0 : t.time }))
    expect(seatDrift(halfOne).find((r) => r.seat === 'sleeper')!.noTimeOrder).toBe(false)
  })
})
