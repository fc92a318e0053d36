import { normalizeLog } from './ln-f'

/** Observations for Dawid–Skene in CSR form: rows start[t]..start[t+1]−1 belong to task t. */
export interface DsData {
  readonly nTasks: number
  readonly nSeats: number
  readonly K: number
  readonly start: Int32Array
  readonly seat: Int32Array
  readonly label: Int32Array
}

/** Class prior and per-seat error matrices errors[(seat·K + observed)·K + true] = P(obs | true). */
export interface DsModel {
  readonly priors: Float64Array
  readonly errors: Float64Array
}

export interface DsResult {
  /** Posteriors of the last E-step (majority shares when no E-step ran), nTasks·K. */
  readonly posteriors: Float64Array
  /** The parameters of the last M-step. */
  readonly last: DsModel
  /** The parameters that produced `posteriors` (the last E-step's input). */
  readonly model: DsModel
  /** E+M iterations after iteration 0. */
  readonly iterations: number
  /** Observed-data log-likelihood at the last E-step (NaN if none). */
  readonly logLik: number
}

const COUNT_FLOOR = 1e-10
const ACC_MIN = 1e-6

/**
 * Unsupervised Dawid–Skene EM (docs/engine.md §6, crowd-kit's DawidSkene), no labels:
 * - initial posteriors = majority shares (uniform for a task without observations);
 * - M-step: full — posterior-weighted counts n(seat, obs, true), clipped at 1e-10, normalised per
 *   seat and true label; one-coin — accuracy_i = mean posterior of the observed label, clipped to
 *   [1e-6, 1 − 1e-6], P(obs|true) = acc if obs = true else (1 − acc)/(K − 1); prior = mean posterior;
 * - E-step in log space; its normaliser gives the observed-data log-likelihood.
 * Iteration 0 is the first M-step; each later iteration is one E-step then one M-step; stop after
 * `maxIter` (100) of them or when the log-likelihood gains < `tol` (1e-5, total). The returned
 * posteriors are those of the last E-step. O(iterations · rows · K).
 */
export function dawidSkene(data: DsData, opts: { full: boolean; maxIter?: number; tol?: number }): DsResult {
  const { nTasks, K } = data
  const maxIter = opts.maxIter ?? 100
  const tol = opts.tol ?? 1e-5
  let post: Float64Array = new Float64Array(nTasks * K)
  for (let t = 0; t < nTasks; t++) {
    const n = data.start[t + 1] - data.start[t]
    for (let j = data.start[t]; j < data.start[t + 1]; j++) post[t * K + data.label[j]] += 1 / n
    if (n === 0) post.fill(1 / K, t * K, (t + 1) * K)
  }
  let last = mStep(data, post, opts.full)
  let model = last
  let prevLL = -Infinity
  let logLik = NaN
  let it = 0
  let spare: Float64Array = new Float64Array(nTasks * K) // E-steps alternate between two buffers
  while (it < maxIter) {
    it++
    model = last
    const next = spare
    logLik = eStep(data, model, next)
    spare = post
    post = next
    last = mStep(data, post, opts.full)
    if (logLik - prevLL < tol) break
    prevLL = logLik
  }
  return { posteriors: post, last, model, iterations: it, logLik }
}

function mStep(data: DsData, post: Float64Array, full: boolean): DsModel {
  const { nTasks, nSeats, K } = data
  const priors = new Float64Array(K)
  for (let t = 0; t < nTasks; t++) for (let g = 0; g < K; g++) priors[g] += post[t * K + g]
  for (let g = 0; g < K; g++) priors[g] /= nTasks
  const errors = new Float64Array(nSeats * K * K)
  if (full) {
    for (let t = 0; t < nTasks; t++) {
      for (let j = data.start[t]; j < data.start[t + 1]; j++) {
        const row = (data.seat[j] * K + data.label[j]) * K
        for (let g = 0; g < K; g++) errors[row + g] += post[t * K + g]
      }
    }
    for (let i = 0; i < errors.length; i++) if (errors[i] < COUNT_FLOOR) errors[i] = COUNT_FLOOR
    for (let s = 0; s < nSeats; s++) {
      for (let g = 0; g < K; g++) {
        let sum = 0
        for (let o = 0; o < K; o++) sum += errors[(s * K + o) * K + g]
        for (let o = 0; o < K; o++) errors[(s * K + o) * K + g] /= sum
      }
    }
    return { priors, errors }
  }
  const agree = new Float64Array(nSeats)
  const seen = new Float64Array(nSeats)
  for (let t = 0; t < nTasks; t++) {
    for (let j = data.start[t]; j < data.start[t + 1]; j++) {
      agree[data.seat[j]] += post[t * K + data.label[j]]
      seen[data.seat[j]]++
    }
  }
  for (let s = 0; s < nSeats; s++) {
    let acc = seen[s] === 0 ? 1 / K : agree[s] / seen[s]
    acc = Math.min(1 - ACC_MIN, Math.max(ACC_MIN, acc))
    for (let o = 0; o < K; o++) for (let g = 0; g < K; g++) errors[(s * K + o) * K + g] = o === g ? acc : (1 - acc) / (K - 1)
  }
  return { priors, errors }
}

/** Writes the posteriors into `post`; returns the observed-data log-likelihood Σ_t ln Σ_g (…). */
function eStep(data: DsData, model: DsModel, post: Float64Array): number {
  const { nTasks, K } = data
  const lnErr = model.errors.map(Math.log)
  const lnPrior = model.priors.map(Math.log)
  const row = new Float64Array(K)
  let logLik = 0
  for (let t = 0; t < nTasks; t++) {
    row.set(lnPrior)
    for (let j = data.start[t]; j < data.start[t + 1]; j++) {
      const base = (data.seat[j] * K + data.label[j]) * K
      for (let g = 0; g < K; g++) row[g] += lnErr[base + g]
    }
    logLik += normalizeLog(row, K)
    post.set(row, t * K)
  }
  return logLik
}
