import { normalizeLog } from './ln-f'

/**
 * Observations for one-coin Dawid–Skene on per-task candidate sets, in CSR form: task t has K[t]
 * candidates, its posterior at post[offset[t] .. offset[t] + K[t]), its observations at rows
 * start[t]..start[t+1]−1 (`label` a candidate index of the task).
 */
export interface DsPerTaskData {
  readonly nTasks: number
  readonly nSeats: number
  readonly K: Int32Array
  /** Prefix sums of K: offset[t] = Σ_{u<t} K[u]; offset[nTasks] = the posterior length. */
  readonly offset: Int32Array
  readonly start: Int32Array
  readonly seat: Int32Array
  readonly label: Int32Array
}

export interface DsPerTaskResult {
  /** Posteriors of the last E-step (majority shares when no E-step ran), laid out by `offset`. */
  readonly posteriors: Float64Array
  /** The seat accuracies that produced `posteriors` (the last E-step's input). */
  readonly accuracy: Float64Array
  /** The accuracies of the last M-step. */
  readonly last: Float64Array
  readonly iterations: number
  readonly logLik: number
}

const ACC_MIN = 1e-6

/**
 * ds-em (one-coin) on per-task candidate sets (docs/engine.md §6): P(obs = a | g) = acc_i if a = g,
 * else (1 − acc_i)/(K_t − 1), with a uniform prior over each task's candidates (a class prior
 * has no meaning when the classes differ per task). Otherwise dawidSkene's schedule: initial
 * posteriors = majority shares; M-step acc_i = mean posterior of the observed label, clipped to
 * [1e-6, 1 − 1e-6]; E-step in log space; iteration 0 is the first M-step, each later one an
 * E-step then an M-step; stop after `maxIter` (100) or a log-likelihood gain < `tol` (1e-5).
 * O(iterations · Σ_t rows_t · K_t).
 */
export function dawidSkenePerTask(data: DsPerTaskData, opts: { maxIter?: number; tol?: number } = {}): DsPerTaskResult {
  const { nTasks, K, offset, start, label } = data
  const maxIter = opts.maxIter ?? 100
  const tol = opts.tol ?? 1e-5
  let post = new Float64Array(offset[nTasks])
  for (let t = 0; t < nTasks; t++) {
    const n = start[t + 1] - start[t]
    if (n === 0) post.fill(1 / K[t], offset[t], offset[t] + K[t])
    for (let j = start[t]; j < start[t + 1]; j++) post[offset[t] + label[j]] += 1 / n
  }
  let last = mStep(data, post)
  let accuracy = last
  let prevLL = -Infinity
  let logLik = NaN
  let it = 0
  let spare = new Float64Array(post.length)
  while (it < maxIter) {
    it++
    accuracy = last
    const next = spare
    logLik = eStep(data, accuracy, next)
    spare = post
    post = next
    last = mStep(data, post)
    if (logLik - prevLL < tol) break
    prevLL = logLik
  }
  return { posteriors: post, accuracy, last, iterations: it, logLik }
}

function mStep(data: DsPerTaskData, post: Float64Array): Float64Array {
  const agree = new Float64Array(data.nSeats)
  const seen = new Float64Array(data.nSeats)
  for (let t = 0; t < data.nTasks; t++) {
    for (let j = data.start[t]; j < data.start[t + 1]; j++) {
      agree[data.seat[j]] += post[data.offset[t] + data.label[j]]
      seen[data.seat[j]]++
    }
  }
  // Every seat of the data has an observation, so seen > 0.
  for (let s = 0; s < data.nSeats; s++) agree[s] = Math.min(1 - ACC_MIN, Math.max(ACC_MIN, agree[s] / seen[s]))
  return agree
}

/** Writes the posteriors into `post`; returns the observed-data log-likelihood. */
function eStep(data: DsPerTaskData, accuracy: Float64Array, post: Float64Array): number {
  let logLik = 0
  let row = new Float64Array(8)
  for (let t = 0; t < data.nTasks; t++) {
    const K = data.K[t]
    if (row.length < K) row = new Float64Array(2 * K)
    oneCoinRow(K, data.start[t], data.start[t + 1], data.seat, data.label, accuracy, row)
    logLik += normalizeLog(row, K)
    for (let g = 0; g < K; g++) post[data.offset[t] + g] = row[g]
  }
  return logLik
}

/**
 * The unnormalised log posterior of one task with K candidates: ln(1/K) + Σ over observations
 * rows lo..hi−1 of ln P(obs | g). Writes row[0..K).
 */
export function oneCoinRow(
  K: number, lo: number, hi: number, seat: ArrayLike<number>, label: ArrayLike<number>, accuracy: ArrayLike<number>, row: Float64Array
): void {
  row.fill(-Math.log(K), 0, K)
  for (let j = lo; j < hi; j++) {
    const acc = accuracy[seat[j]]
    const hit = Math.log(acc)
    const miss = Math.log((1 - acc) / (K - 1))
    for (let g = 0; g < K; g++) row[g] += g === label[j] ? hit : miss
  }
}
