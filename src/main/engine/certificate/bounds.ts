import { usableKs, type Certificate } from './build'
import { kBoundRule } from './kBound'
import type { StateTask } from './types'

/**
 * Per-task, per-round lower bounds (docs/engine.md §8.7; AoD §3 "Adaptive lower bound"):
 *
 *     hoeffding:  L_{t,k} = q̂_{t,k} − ω̂_t(h_{t,k}) − c_k
 *     binomial:   L_{t,k} = L^CP(x_{t,k}, n_{t,k}) − ω̂_t(h_{t,k})
 *     L_t = max_{k ∈ 𝒦_used} L_{t,k}
 *
 * with n the size of the (tie-complete) neighbourhood, x its Σ Z, q̂ = x/n, h the k-th smallest
 * distance in the normalised space, c_k = sqrt(ln(T·|𝒦_used|/δ)/(2k)) and L^CP the Clopper–Pearson
 * lower bound at δ' = δ/(T·|𝒦_used|) (see `kBound.ts`). The k behind each L_t is the smallest on
 * ties. The table does not depend on β, so λ sweeps and frontiers reuse it.
 *
 * A scored task that is also in D_loc is left out of D_loc for its own query: its 𝒦_used is
 * {k ≤ |D_loc| − 1} (and c_k or δ' uses that count). Queries without a self-exclusion depend only on
 * the normalised state, so they are cached per round — with the discrete states of §8.2 there
 * are only a few hundred distinct queries however many tasks are scored (in one call, or in all the
 * calls that share a `BoundMemo`).
 */
export interface BoundTable {
  readonly T: number
  /** Tasks, in input order. */
  readonly n: number
  /** L_t at [task·T + t]; NaN when the task's 𝒦_used is empty. */
  readonly L: Float64Array
  /** k behind L_t (0 when none). */
  readonly k: Int32Array
  /** n: the neighbourhood size of that k (≥ k, ties at h included; 0 when none). */
  readonly neighbours: Float64Array
  /** q̂, b and the concentration term of that k. */
  readonly qhat: Float64Array
  readonly bias: Float64Array
  readonly conc: Float64Array
  /** 1 when the task's 𝒦_used is non-empty. */
  readonly usable: Uint8Array
}

interface QueryResult {
  L: number
  k: number
  n: number
  qhat: number
  bias: number
  conc: number
}

/**
 * The per-round query caches of one certificate, kept across `computeBounds` calls: a decide scores
 * its tasks a page at a time, and every page asks the same few hundred queries.
 */
export interface BoundMemo {
  readonly certificate: Certificate
  readonly byState: Map<number, QueryResult>[]
  readonly bySelf: Map<string, QueryResult>[]
}

export function boundMemo(cert: Certificate): BoundMemo {
  return { certificate: cert, byState: cert.rounds.map(() => new Map()), bySelf: cert.rounds.map(() => new Map()) }
}

/** Validate a scored task's shape against T. */
/** Scored states in columns: U_t of task i is (p1, delta) at [i·T + t]. */
export interface StateColumns {
  readonly ids: readonly string[]
  readonly p1: Float64Array
  readonly delta: Float64Array
}

/** The bounds of scored tasks given as objects (see `boundsOfStates`). */
export function computeBounds(cert: Certificate, tasks: readonly StateTask[], memo: BoundMemo = boundMemo(cert)): BoundTable {
  const T = cert.T
  const p1 = new Float64Array(tasks.length * T)
  const delta = new Float64Array(tasks.length * T)
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]
    if (task.states.length !== T) {
      throw new RangeError(`certificate: scored task ${task.id} has ${task.states.length} states, expected T = ${T} (cut or pad to T)`)
    }
    for (let t = 0; t < T; t++) {
      p1[i * T + t] = task.states[t].p1
      delta[i * T + t] = task.states[t].delta
    }
  }
  return boundsOfStates(cert, { ids: tasks.map((t) => t.id), p1, delta }, memo)
}

/** The bounds of scored tasks given in columns: a decide's pages, without an object per task or round. */
export function boundsOfStates(cert: Certificate, states: StateColumns, memo: BoundMemo = boundMemo(cert)): BoundTable {
  if (memo.certificate !== cert) throw new Error('computeBounds: the memo belongs to another certificate')
  const { T, size } = cert
  const n = states.ids.length
  const L = new Float64Array(n * T).fill(Number.NaN)
  const kOut = new Int32Array(n * T)
  const nOut = new Float64Array(n * T)
  const qhat = new Float64Array(n * T).fill(Number.NaN)
  const bias = new Float64Array(n * T).fill(Number.NaN)
  const conc = new Float64Array(n * T).fill(Number.NaN)
  const usable = new Uint8Array(n)

  const delta = cert.options.delta
  const nLoc = cert.locIds.length
  const bound = cert.options.bound
  const kFull = cert.kUsed
  const ruleFull = kBoundRule(bound, kFull, T, delta)
  // 𝒦_used and its rule when the querying task is itself in D_loc (§8.7: "computed without it").
  const kSelf = usableKs(cert.options.ks, nLoc - 1)
  const ruleSelf = kBoundRule(bound, kSelf, T, delta)

  const rows = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < T; t++) {
      if (!Number.isFinite(states.p1[i * T + t]) || !Number.isFinite(states.delta[i * T + t])) {
        throw new RangeError(`certificate: scored task ${states.ids[i]} round ${t} has a non-finite state`)
      }
    }
    rows[i] = cert.locRow.get(states.ids[i]) ?? -1
    usable[i] = (rows[i] >= 0 ? kSelf.length : kFull.length) > 0 ? 1 : 0
  }

  for (let t = 0; t < T; t++) {
    const round = cert.rounds[t]
    const cache = memo.byState[t]
    const selfCache = memo.bySelf[t]
    const evaluate = (cx: number, cy: number, row: number): QueryResult => {
      const ks = row >= 0 ? kSelf : kFull
      const rule = row >= 0 ? ruleSelf : ruleFull
      const nb = round.local.query(cx / size, cy / size, ks, row)
      let best: QueryResult = { L: -Infinity, k: 0, n: 0, qhat: Number.NaN, bias: Number.NaN, conc: Number.NaN }
      for (let a = 0; a < ks.length; a++) {
        const x = nb.sumZ[a]
        const m = nb.count[a]
        const b = round.modulus.at(Math.sqrt(nb.h2[a]))
        const Lk = rule.lower(a, x, m, b)
        // Ascending k and a strict '>' keep the smallest k on ties.
        if (Lk > best.L) best = { L: Lk, k: ks[a], n: m, qhat: x / m, bias: b, conc: rule.conc(a, x, m) }
      }
      return best
    }
    for (let i = 0; i < n; i++) {
      if (usable[i] === 0) continue
      const cx = round.cdfP1.count(states.p1[i * T + t])
      const cy = round.cdfDelta.count(states.delta[i * T + t])
      const row = rows[i]
      let res: QueryResult | undefined
      if (row < 0) {
        const key = cx * (size + 1) + cy
        res = cache.get(key)
        if (res === undefined) {
          res = evaluate(cx, cy, -1)
          cache.set(key, res)
        }
      } else {
        // Leaving the task out only changes its own site's weight and ΣZ, so the result is shared
        // by every query with the same state, excluded site and excluded Z.
        const key = `${cx},${cy},${round.local.siteOfRow(row)},${round.local.zOfRow(row)}`
        res = selfCache.get(key)
        if (res === undefined) {
          res = evaluate(cx, cy, row)
          selfCache.set(key, res)
        }
      }
      const o = i * T + t
      L[o] = res.L
      kOut[o] = res.k
      nOut[o] = res.n
      qhat[o] = res.qhat
      bias[o] = res.bias
      conc[o] = res.conc
    }
  }
  return { T, n, L, k: kOut, neighbours: nOut, qhat, bias, conc, usable }
}
