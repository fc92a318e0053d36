import { hashMod } from '../hash'

/**
 * Seat drift (docs/engine.md §9; BDA F.8, §8). Per seat:
 *
 *     r(part) = (Σ_part c_i(g*) + 1) / (Σ_part N_i + 2)          (Laplace, as in §4)
 *     diff    = r(recent) − r(rest)
 *
 * recent = the most recent ⌊0.2·n⌋ labeled tasks by label time (ties in time keep input order),
 * rest = the others; all label sources. The noise floor is the sample standard deviation of diff
 * over B = 200 bootstrap resamples, each part resampled by task: draw j of resample b of a part of
 * size m is index H(`${seed}:boot:${b}:${j}`) mod m. Flag when |diff| > 2·floor and each part
 * holds ≥ 20 labeled tasks in which the seat moved.
 *
 * When more than half of the labels share one time (e.g. all imported at once with `--gold-as`),
 * there is no time order to judge: every seat reports `noTimeOrder` and is never flagged. Its
 * figures are still those of the split above (ties in file order), computed exactly as before.
 */

/** A seat's counts on one labeled task (§2 notation, all rounds, against the gold g*). */
export interface DriftSeatCounts {
  /** c_i(g*): endorsements consistent with the gold. */
  readonly consistent: number
  /** N_i: all of the seat's endorsements in the task. */
  readonly total: number
}

/**
 * One labeled task. `seats` holds an entry for every seat that MOVED in the task (any force — an
 * abstain-only seat has total 0 but still counts as having moved); seats absent did not move.
 */
export interface DriftTask {
  readonly id?: string
  /** Label time (any monotone number, e.g. epoch ms). */
  readonly time: number
  readonly seats: Readonly<Record<string, DriftSeatCounts>>
}

export interface SeatDrift {
  readonly seat: string
  /** r on the recent part. */
  readonly recent: number
  /** r on the rest. */
  readonly rest: number
  /** recent − rest. */
  readonly diff: number
  /** Bootstrap sd of diff. */
  readonly floor: number
  readonly flagged: boolean
  /** More than half of the labels share one time: no verdict (§9). */
  readonly noTimeOrder: boolean
  /** Labeled tasks of each part in which the seat moved. */
  readonly recentTasks: number
  readonly restTasks: number
}

export interface DriftOptions {
  readonly seed?: number | string
  /** Bootstrap resamples B (default 200). */
  readonly resamples?: number
  /** Tasks with a move required in each part (default 20). */
  readonly minTasks?: number
}

const drawCache = new Map<string, Int32Array>()
const DRAW_CACHE_LIMIT = 16

/**
 * The bootstrap draw table of a part of size m: out[b·m + j] = H(`${seed}:boot:${b}:${j}`) mod m.
 * One SHA-256 per draw is the slow part of drift, so tables are computed once per (seed, B, m) and
 * shared by every seat (and memoised across calls: refits keep the same part sizes).
 */
export function bootstrapDraws(seed: number | string, resamples: number, m: number): Int32Array {
  const key = `${seed}|${resamples}|${m}`
  const hit = drawCache.get(key)
  if (hit !== undefined) return hit
  const out = new Int32Array(resamples * m)
  if (m > 0) {
    for (let b = 0; b < resamples; b++) {
      for (let j = 0; j < m; j++) out[b * m + j] = hashMod(`${seed}:boot:${b}:${j}`, m)
    }
  }
  if (drawCache.size >= DRAW_CACHE_LIMIT) {
    const oldest = drawCache.keys().next().value
    if (oldest !== undefined) drawCache.delete(oldest)
  }
  drawCache.set(key, out)
  return out
}

/** Laplace reliability (Σc + 1) / (ΣN + 2). */
function laplace(c: number, N: number): number {
  return (c + 1) / (N + 2)
}

/** Sample standard deviation (n − 1 denominator); 0 for fewer than 2 values. */
function sampleSd(v: Float64Array): number {
  const n = v.length
  if (n < 2) return 0
  let mean = 0
  for (let i = 0; i < n; i++) mean += v[i]
  mean /= n
  let ss = 0
  for (let i = 0; i < n; i++) ss += (v[i] - mean) * (v[i] - mean)
  return Math.sqrt(ss / (n - 1))
}

/**
 * Whether label times give an order to judge drift by (docs/engine.md §9): not when more than half of
 * them share one time. No labels: nothing to judge against, so nothing is said about order (true).
 */
export function hasTimeOrder(times: readonly number[]): boolean {
  const count = new Map<number, number>()
  let most = 0
  for (const t of times) {
    const c = (count.get(t) ?? 0) + 1
    count.set(t, c)
    if (c > most) most = c
  }
  return 2 * most <= times.length
}

/**
 * Drift report per seat (seats in JavaScript's default string order).
 */
export function seatDrift(tasks: readonly DriftTask[], options: DriftOptions = {}): SeatDrift[] {
  const seed = options.seed ?? 0
  const B = options.resamples ?? 200
  const minTasks = options.minTasks ?? 20
  const n = tasks.length
  for (const task of tasks) {
    if (!Number.isFinite(task.time)) throw new RangeError(`seatDrift: task ${task.id ?? '?'} has a non-finite label time`)
    for (const [seat, c] of Object.entries(task.seats)) {
      if (!(c.total >= 0 && c.consistent >= 0 && c.consistent <= c.total)) {
        throw new RangeError(`seatDrift: task ${task.id ?? '?'} seat ${seat} has bad counts`)
      }
    }
  }
  const noTimeOrder = !hasTimeOrder(tasks.map((t) => t.time))
  // Stable by time: ties keep input order.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => tasks[a].time - tasks[b].time || a - b)
  const nRecent = Math.floor(0.2 * n)
  const nRest = n - nRecent
  const restRows = order.slice(0, nRest)
  const recentRows = order.slice(nRest)
  const drawsRecent = bootstrapDraws(seed, B, nRecent)
  const drawsRest = bootstrapDraws(seed, B, nRest)

  const seats = new Set<string>()
  for (const task of tasks) for (const seat of Object.keys(task.seats)) seats.add(seat)

  const part = (rows: number[], seat: string): { c: Float64Array; N: Float64Array; moved: number } => {
    const c = new Float64Array(rows.length)
    const N = new Float64Array(rows.length)
    let moved = 0
    for (let j = 0; j < rows.length; j++) {
      const e = tasks[rows[j]].seats[seat]
      if (e === undefined) continue
      c[j] = e.consistent
      N[j] = e.total
      moved++
    }
    return { c, N, moved }
  }
  const resampled = (p: { c: Float64Array; N: Float64Array }, draws: Int32Array, b: number, m: number): number => {
    let sc = 0
    let sn = 0
    const o = b * m
    for (let j = 0; j < m; j++) {
      const idx = draws[o + j]
      sc += p.c[idx]
      sn += p.N[idx]
    }
    return laplace(sc, sn)
  }
  const sum = (v: Float64Array): number => {
    let s = 0
    for (let i = 0; i < v.length; i++) s += v[i]
    return s
  }

  const out: SeatDrift[] = []
  for (const seat of [...seats].sort()) {
    const rec = part(recentRows, seat)
    const rst = part(restRows, seat)
    const recent = laplace(sum(rec.c), sum(rec.N))
    const rest = laplace(sum(rst.c), sum(rst.N))
    const diff = recent - rest
    const diffs = new Float64Array(B)
    for (let b = 0; b < B; b++) diffs[b] = resampled(rec, drawsRecent, b, nRecent) - resampled(rst, drawsRest, b, nRest)
    const floor = sampleSd(diffs)
    const flagged = !noTimeOrder && Math.abs(diff) > 2 * floor && rec.moved >= minTasks && rst.moved >= minTasks
    out.push({ seat, recent, rest, diff, floor, flagged, noTimeOrder, recentTasks: rec.moved, restTasks: rst.moved })
  }
  return out
}
