/**
 * The EM loop beside its floor: Dawid–Skene (full and one-coin, docs/engine.md §6) on
 * AdultContent2 (11,040 tasks, 92,721 labels, 825 workers, K = 4; in the repository's fixtures), a
 * fixed number of iterations, timed per iteration — beside a hand-written E+M pass over the same
 * CSR observation arrays in buffers allocated once: the same arithmetic, nothing else. The engine's
 * iteration should cost at most twice that pass.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dawidSkene, type DsData } from '../src/main/engine/dawid-skene'
import { medianMs, type Figure } from './figure'

const LABELS = join(__dirname, '../test/fixtures/data/gal-adultcontent/AdultContent2/labels.txt')
/** Iterations timed per run: enough that the setup (majority shares, buffers) is noise. */
const ITERATIONS = 50
const COUNT_FLOOR = 1e-10
const ACC_MIN = 1e-6

/** The label file (worker, task, label; tab-separated) as CSR rows by task, in first-seen order. */
export function adultContent2(): DsData {
  const rows = readFileSync(LABELS, 'utf8').split('\n').filter((l) => l !== '').map((l) => l.split('\t'))
  const ids = (key: (r: string[]) => string) => {
    const m = new Map<string, number>()
    for (const r of rows) if (!m.has(key(r))) m.set(key(r), m.size)
    return m
  }
  const workers = ids((r) => r[0])
  const tasks = ids((r) => r[1])
  const labels = ids((r) => r[2])
  const start = new Int32Array(tasks.size + 1)
  for (const r of rows) start[(tasks.get(r[1]) as number) + 1]++
  for (let t = 0; t < tasks.size; t++) start[t + 1] += start[t]
  const fill = start.slice(0, tasks.size)
  const seat = new Int32Array(rows.length)
  const label = new Int32Array(rows.length)
  for (const r of rows) {
    const j = fill[tasks.get(r[1]) as number]++
    seat[j] = workers.get(r[0]) as number
    label[j] = labels.get(r[2]) as number
  }
  return { nTasks: tasks.size, nSeats: workers.size, K: labels.size, start, seat, label }
}

/** Buffers for the floor, allocated once. */
type Scratch = { row: Float64Array; post: Float64Array; errors: Float64Array; lnErr: Float64Array; priors: Float64Array; lnPrior: Float64Array; agree: Float64Array; seen: Float64Array }

/** The engine's iteration 0: majority shares, then the first M-step. */
function scratchFor(d: DsData, m: (d: DsData, s: Scratch) => void): Scratch {
  const { nTasks, K, start, label } = d
  const errors = new Float64Array(d.nSeats * K * K)
  const s: Scratch = {
    row: new Float64Array(K), post: new Float64Array(nTasks * K), errors, lnErr: new Float64Array(errors.length),
    priors: new Float64Array(K), lnPrior: new Float64Array(K), agree: new Float64Array(d.nSeats), seen: new Float64Array(d.nSeats)
  }
  for (let t = 0; t < nTasks; t++) {
    const n = start[t + 1] - start[t]
    for (let j = start[t]; j < start[t + 1]; j++) s.post[t * K + label[j]] += 1 / n
    if (n === 0) s.post.fill(1 / K, t * K, (t + 1) * K)
  }
  m(d, s)
  return s
}

/** E-step: posteriors from the current model, in log space; returns the log-likelihood. */
function eFloor(d: DsData, s: Scratch): number {
  const { nTasks, K, start, seat, label } = d
  const { post, errors, lnErr, priors, lnPrior } = s
  for (let i = 0; i < errors.length; i++) lnErr[i] = Math.log(errors[i])
  for (let g = 0; g < K; g++) lnPrior[g] = Math.log(priors[g])
  const row = s.row
  let ll = 0
  for (let t = 0; t < nTasks; t++) {
    for (let g = 0; g < K; g++) row[g] = lnPrior[g]
    for (let j = start[t]; j < start[t + 1]; j++) {
      const b = (seat[j] * K + label[j]) * K
      for (let g = 0; g < K; g++) row[g] += lnErr[b + g]
    }
    let max = -Infinity
    for (let g = 0; g < K; g++) if (row[g] > max) max = row[g]
    let sum = 0
    for (let g = 0; g < K; g++) sum += row[g] = Math.exp(row[g] - max)
    for (let g = 0; g < K; g++) post[t * K + g] = row[g] / sum
    ll += max + Math.log(sum)
  }
  return ll
}

function priorsFloor(d: DsData, s: Scratch): void {
  const { nTasks, K } = d
  s.priors.fill(0)
  for (let t = 0; t < nTasks; t++) for (let g = 0; g < K; g++) s.priors[g] += s.post[t * K + g]
  for (let g = 0; g < K; g++) s.priors[g] /= nTasks
}

/** The full M-step. */
function mFull(d: DsData, s: Scratch): void {
  const { nTasks, nSeats, K, start, seat, label } = d
  const { post, errors } = s
  priorsFloor(d, s)
  errors.fill(0)
  for (let t = 0; t < nTasks; t++) {
    for (let j = start[t]; j < start[t + 1]; j++) {
      const row = (seat[j] * K + label[j]) * K
      for (let g = 0; g < K; g++) errors[row + g] += post[t * K + g]
    }
  }
  for (let i = 0; i < errors.length; i++) if (errors[i] < COUNT_FLOOR) errors[i] = COUNT_FLOOR
  for (let w = 0; w < nSeats; w++) {
    for (let g = 0; g < K; g++) {
      let sum = 0
      for (let o = 0; o < K; o++) sum += errors[(w * K + o) * K + g]
      for (let o = 0; o < K; o++) errors[(w * K + o) * K + g] /= sum
    }
  }
}

/** The one-coin M-step. */
function mOneCoin(d: DsData, s: Scratch): void {
  const { nTasks, nSeats, K, start, seat, label } = d
  const { post, errors, agree, seen } = s
  priorsFloor(d, s)
  agree.fill(0)
  seen.fill(0)
  for (let t = 0; t < nTasks; t++) {
    for (let j = start[t]; j < start[t + 1]; j++) {
      agree[seat[j]] += post[t * K + label[j]]
      seen[seat[j]]++
    }
  }
  for (let w = 0; w < nSeats; w++) {
    const acc = Math.min(1 - ACC_MIN, Math.max(ACC_MIN, seen[w] === 0 ? 1 / K : agree[w] / seen[w]))
    for (let o = 0; o < K; o++) for (let g = 0; g < K; g++) errors[(w * K + o) * K + g] = o === g ? acc : (1 - acc) / (K - 1)
  }
}

/** `n` E+M passes from the engine's iteration 0; returns the last E-step's log-likelihood. */
function floorRun(d: DsData, m: (d: DsData, s: Scratch) => void, n: number): number {
  const s = scratchFor(d, m)
  let ll = NaN
  for (let i = 0; i < n; i++) {
    ll = eFloor(d, s)
    m(d, s)
  }
  return ll
}

export async function emFigures(): Promise<Figure[]> {
  const d = adultContent2()
  const out: Figure[] = []
  for (const full of [true, false]) {
    // tol −∞: never stops early, so every run is exactly ITERATIONS E+M passes.
    const run = () => dawidSkene(d, { full, maxIter: ITERATIONS, tol: -Infinity })
    const m = full ? mFull : mOneCoin
    // The floor must be the same arithmetic: the same log-likelihood after the same passes.
    const [a, b] = [run().logLik, floorRun(d, m, ITERATIONS)]
    if (!(Math.abs(a - b) <= 1e-9 * Math.abs(a))) throw new Error(`the EM floor drifted from the engine: log-likelihood ${b} vs ${a}`)
    const engine = (await medianMs(run)) / ITERATIONS
    // Buffers and iteration 0 outside the timed passes: what is left is the passes alone.
    const s = scratchFor(d, m)
    const floor = (await medianMs(() => {
      let ll = 0
      for (let i = 0; i < ITERATIONS; i++) {
        ll += eFloor(d, s)
        m(d, s)
      }
      return ll
    })) / ITERATIONS
    const name = full ? 'full Dawid–Skene' : 'one-coin Dawid–Skene'
    out.push({
      suite: 'engine', name: `EM iteration, ${name}, AdultContent2 (${d.nTasks.toLocaleString('en-US')} tasks, ${d.label.length.toLocaleString('en-US')} labels, K = ${d.K})`,
      value: engine, unit: 'ms', target: 2 * floor, better: 'lower', reference: { name: 'hand-written E+M pass, no allocation', value: floor },
      note: `${(engine / floor).toFixed(2)}× the floor (target ≤ 2×)`
    })
  }
  return out
}
