import type { DebateStyle } from './config'
import type { Rng } from './prng'

/**
 * The move policy of one simulated task (the generative model is documented in council.ts).
 * Moves are written into preallocated typed arrays and reused task after task; council.ts turns
 * them into `Move` objects. Every move's signed endorsement (docs/engine.md §2) is tracked here, so a
 * target is always another seat's move from an earlier round that carries one.
 */

export const F_PROPOSE = 0
export const F_VOTE = 1
export const F_CHALLENGE = 2
export const F_CONCEDE = 3
export const F_RETRACT = 4
export const F_ABSTAIN = 5

/** Target filters of `latest`: what an earlier move of another seat must endorse. */
const SUPPORTS = 0 // (+1, x)
const OPPOSES = 1 // (+1, y ≠ x) or (−1, x)
const BACKS_GOLD = 2 // (+1, gold)
const BACKS_WRONG = 3 // (+1, y ≠ gold)

/** What one task needs to know beyond the council's fixed configuration. */
export interface TaskSetup {
  k: number
  gold: number
  distractor: number
  rounds: number
  /** Honest reliability of each seat for this task's group. */
  reliability: Float64Array
  /** 1 when the seat is hostile on this task (adversary, turned sleeper, rotating pick). */
  hostile: Uint8Array
  /** P(each move of a hostile seat is adversarial). */
  pWrong: Float64Array
}

export class Debate {
  /** Number of moves of the current task. */
  n = 0
  readonly seat: Int32Array
  readonly round: Int32Array
  readonly force: Uint8Array
  /** Endorsement sign of each move: +1, −1, or 0 for none (abstain). */
  readonly sign: Int8Array
  /** Endorsed candidate (the answer for propose / vote); −1 for none. */
  readonly cand: Int32Array
  readonly target: Int32Array
  /** 1 when the move expresses a change of mind (switching concede, re-propose). */
  readonly changed: Uint8Array
  /** 1 when the move was played adversarially. */
  readonly adversarial: Uint8Array

  private readonly cur: Int32Array // current answer (latest +1 candidate, cleared by retract); −1 none
  private readonly curAtRound: Int32Array // `cur` as the round began: what conformity sees
  private readonly lastPlus: Int32Array // latest +1 candidate, what a retract negates; −1 none
  private readonly anti: Int32Array // a hostile seat's wrong answer on this task
  private pool: Int32Array // scratch: equally recent matching targets, or tied candidates
  private counts = new Int32Array(16) // scratch: plurality tally
  private rng!: Rng
  private task!: TaskSetup

  constructor(
    private readonly seats: number,
    maxRounds: number,
    private readonly style: DebateStyle,
    private readonly conformity: Float64Array,
    private readonly abstainRate: Float64Array,
    private readonly errorCorrelation: number
  ) {
    const cap = seats * maxRounds
    this.seat = new Int32Array(cap)
    this.round = new Int32Array(cap)
    this.force = new Uint8Array(cap)
    this.sign = new Int8Array(cap)
    this.cand = new Int32Array(cap)
    this.target = new Int32Array(cap)
    this.changed = new Uint8Array(cap)
    this.adversarial = new Uint8Array(cap)
    this.cur = new Int32Array(seats)
    this.curAtRound = new Int32Array(seats)
    this.lastPlus = new Int32Array(seats)
    this.anti = new Int32Array(seats)
    this.pool = new Int32Array(cap)
  }

  /** Plays one task: one move per seat per round, seats in order within a round. */
  run(rng: Rng, task: TaskSetup): void {
    this.rng = rng
    this.task = task
    this.n = 0
    const S = this.seats
    if (this.counts.length < task.k) this.counts = new Int32Array(task.k)
    if (this.pool.length < task.k) this.pool = new Int32Array(task.k)
    this.cur.fill(-1)
    this.lastPlus.fill(-1)
    for (let s = 0; s < S; s++) {
      // "Pick the most defensible wrong" (BDA F.2): mostly the task's distractor.
      if (task.hostile[s]) this.anti[s] = rng.next() < 0.7 ? task.distractor : this.wrong(false)
    }
    for (let t = 0; t < task.rounds; t++) {
      // Seats answer simultaneously: round t only sees (and targets) moves of rounds < t.
      const seen = this.n
      this.curAtRound.set(this.cur)
      for (let s = 0; s < S; s++) {
        const pw = task.pWrong[s]
        if (task.hostile[s] && (pw >= 1 || rng.next() < pw)) this.hostileMove(s, t, seen)
        else if (this.abstainRate[s] > 0 && rng.next() < this.abstainRate[s]) this.emit(s, t, F_ABSTAIN, 0, -1, -1, 0)
        else if (t === 0) this.emit(s, t, F_PROPOSE, 1, this.look(s), -1, 0)
        else this.honestMove(s, t, seen, this.stance(s))
      }
    }
  }

  /** A fresh, conditionally independent look at the question: gold with the seat's reliability. */
  private look(s: number): number {
    return this.rng.next() < this.task.reliability[s] ? this.task.gold : this.wrong(true)
  }

  /** A wrong candidate: the distractor with P(errorCorrelation) when `correlated`, else uniform. */
  private wrong(correlated: boolean): number {
    const { k, gold, distractor } = this.task
    if (k === 2) return 1 - gold
    if (correlated && this.errorCorrelation > 0 && this.rng.next() < this.errorCorrelation) return distractor
    const r = this.rng.int(k - 1)
    return r >= gold ? r + 1 : r
  }

  /** Later-round stance: with P(conformity) the plurality of the other seats' answers (contagion). */
  private stance(s: number): number {
    const c = this.conformity[s]
    if (c > 0 && this.rng.next() < c) {
      const counts = this.counts
      counts.fill(0)
      for (let o = 0; o < this.seats; o++) if (o !== s && this.curAtRound[o] >= 0) counts[this.curAtRound[o]]++
      let best = 0
      for (let g = 0; g < this.task.k; g++) if (counts[g] > best) best = counts[g]
      if (best > 0) {
        let ties = 0
        for (let g = 0; g < this.task.k; g++) if (counts[g] === best) this.pool[ties++] = g
        return this.pool[this.rng.int(ties)]
      }
    }
    return this.look(s)
  }

  private honestMove(s: number, t: number, seen: number, stance: number): void {
    const st = this.style
    if (stance === this.cur[s]) {
      const opp = this.latest(s, seen, OPPOSES, stance)
      if (opp >= 0 && this.rng.next() < st.challengeRate) return this.challenge(s, t, opp, 0)
      const sup = this.latest(s, seen, SUPPORTS, stance)
      if (sup >= 0 && this.rng.next() < st.agreeRate) return this.concede(s, t, sup, 0)
      return this.emit(s, t, F_VOTE, 1, stance, -1, 0)
    }
    const sup = this.latest(s, seen, SUPPORTS, stance)
    if (sup >= 0 && this.rng.next() < st.switchConcedeRate) return this.concede(s, t, sup, 1)
    if (this.cur[s] >= 0 && this.rng.next() < st.retractRate) return this.emit(s, t, F_RETRACT, -1, this.lastPlus[s], -1, 1)
    this.emit(s, t, F_PROPOSE, 1, stance, -1, 1)
  }

  /** Every endorsement of a hostile move is inconsistent with the gold. */
  private hostileMove(s: number, t: number, seen: number): void {
    if (t === 0) return this.emit(s, t, F_PROPOSE, 1, this.anti[s], -1, 0, 1)
    const st = this.style
    const truth = this.latest(s, seen, BACKS_GOLD, this.task.gold)
    if (truth >= 0 && this.rng.next() < st.attackRate) return this.challenge(s, t, truth, 1)
    const ally = this.latest(s, seen, BACKS_WRONG, this.task.gold)
    if (ally >= 0 && this.rng.next() < st.allyRate) {
      this.anti[s] = this.cand[ally] // coalition: adopt the ally's wrong answer
      return this.concede(s, t, ally, 0, 1)
    }
    const a = this.anti[s]
    this.emit(s, t, a === this.cur[s] ? F_VOTE : F_PROPOSE, 1, a, -1, 0, 1)
  }

  private challenge(s: number, t: number, j: number, hostile: number): void {
    this.emit(s, t, F_CHALLENGE, -this.sign[j], this.cand[j], j, 0, hostile)
  }

  private concede(s: number, t: number, j: number, changed: number, hostile = 0): void {
    this.emit(s, t, F_CONCEDE, this.sign[j], this.cand[j], j, changed, hostile)
  }

  /**
   * A random one of the most recent moves (rounds < t, other seats, with an endorsement) that
   * passes `filter` against candidate x; −1 when none. Recency: debaters answer the last round.
   */
  private latest(s: number, seen: number, filter: number, x: number): number {
    let found = 0
    let roundFound = -1
    for (let j = seen - 1; j >= 0; j--) {
      if (roundFound >= 0 && this.round[j] < roundFound) break
      if (this.seat[j] === s) continue
      const sg = this.sign[j]
      const c = this.cand[j]
      let ok: boolean
      if (filter === SUPPORTS || filter === BACKS_GOLD) ok = sg === 1 && c === x
      else if (filter === BACKS_WRONG) ok = sg === 1 && c !== x
      else ok = (sg === 1 && c !== x) || (sg === -1 && c === x)
      if (!ok) continue
      roundFound = this.round[j]
      this.pool[found++] = j
    }
    if (found === 0) return -1
    return found === 1 ? this.pool[0] : this.pool[this.rng.int(found)]
  }

  private emit(s: number, t: number, force: number, sign: number, cand: number, target: number, changed: number, hostile = 0): void {
    const i = this.n++
    this.seat[i] = s
    this.round[i] = t
    this.force[i] = force
    this.sign[i] = sign
    this.cand[i] = cand
    this.target[i] = target
    this.changed[i] = changed
    this.adversarial[i] = hostile
    if (force === F_RETRACT) this.cur[s] = -1
    else if (sign === 1) {
      this.cur[s] = cand
      this.lastPlus[s] = cand
    }
  }
}
