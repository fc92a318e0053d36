import type { Aggregator, SeatReport } from './aggregator'
import { majorityShares } from './majority'
import type { SeatIndex } from './seat-index'
import type { TaskTallies } from './tallies'

/** Per seat: correct round-0 answers, and how many of its L tasks had each K. */
interface GateTally {
  correct: number
  byK: Map<number, number>
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))

/**
 * Does the seat pass §6's gate? Its round-0 accuracy over the n tasks of L where it has a round-0
 * propose/vote must exceed the mean of 1/K over those same tasks — compared exactly:
 *   correct/n > (Σ_t 1/K_t)/n  ⇔  correct·D > Σ_K m_K·(D/K),  D = lcm of the K's (BigInt).
 * A seat with no such task has 0 > 0: it does not pass.
 */
export function passesGate(correct: number, byK: ReadonlyMap<number, number>): boolean {
  let D = 1n
  for (const K of byK.keys()) D = (D * BigInt(K)) / gcd(D, BigInt(K))
  let rhs = 0n
  for (const [K, m] of byK) rhs += BigInt(m) * (D / BigInt(K))
  return BigInt(correct) * D > rhs
}

/**
 * Gated majority (docs/engine.md §6, BDA B.1): majority over the seats that pass the round-0 accuracy
 * gate on L; plain majority for a task where no proposer passes.
 */
export class GatedAggregator implements Aggregator {
  readonly method = 'gated' as const
  readonly hyper = {}
  /** Passing flags by global seat index; seats beyond it (unseen in L) do not pass. */
  readonly pass: Uint8Array
  private readonly tallies: Map<number, GateTally>

  constructor(labeled: readonly TaskTallies[]) {
    this.tallies = new Map()
    let size = 0
    for (const t of labeled) {
      if (t.gold < 0) continue
      for (let s = 0; s < t.S; s++) {
        if (t.vote0[s] < 0) continue
        const gi = t.seats[s]
        size = Math.max(size, gi + 1)
        let g = this.tallies.get(gi)
        if (g === undefined) this.tallies.set(gi, (g = { correct: 0, byK: new Map() }))
        if (t.vote0[s] === t.gold) g.correct++
        g.byK.set(t.K, (g.byK.get(t.K) ?? 0) + 1)
      }
    }
    this.pass = new Uint8Array(size)
    for (const [gi, g] of this.tallies) this.pass[gi] = passesGate(g.correct, g.byK) ? 1 : 0
  }

  private readonly passes = (gi: number): boolean => gi < this.pass.length && this.pass[gi] === 1

  posteriorAt(t: TaskTallies, _round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const res = out ?? new Float64Array(t.K)
    if (majorityShares(t, res, dropSeat, this.passes) === 0) majorityShares(t, res, dropSeat)
    return res
  }

  weights(): Record<string, number> {
    return {}
  }

  seatReport(index: SeatIndex): SeatReport[] {
    return index.ids.map((seat, gi) => {
      const g = this.tallies.get(gi)
      return { seat, seen: g !== undefined, r: null, gated: this.passes(gi) }
    })
  }
}
