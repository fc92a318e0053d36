import { MethodRefused, type Method } from './methods'

interface HasCandidates {
  task: string
  candidates: readonly string[]
}

const asSet = (c: readonly string[]): string => [...c].sort().join('\u0001')
const show = (c: readonly string[]): string => `{${c.join(', ')}}`

/**
 * The first task whose candidate SET (order ignored) differs from the first task's, or null
 * (docs/engine.md §5, §6: confusion, ds-em and ds-em-full need one shared set). O(Σ K log K).
 */
export function firstDifferingTask<T extends HasCandidates>(tasks: readonly T[]): { first: T; differing: T } | null {
  if (tasks.length === 0) return null
  const ref = asSet(tasks[0].candidates)
  for (const t of tasks) if (asSet(t.candidates) !== ref) return { first: tasks[0], differing: t }
  return null
}

/**
 * @throws MethodRefused naming the first differing task when `tasks` (in the order the
 * contract asks for: calibration first, then traces) do not share one candidate set.
 */
export function requireOneCandidateSet<T extends HasCandidates>(method: Method, tasks: readonly T[]): void {
  const d = firstDifferingTask(tasks)
  if (d === null) return
  throw new MethodRefused(
    `${method} needs every task to share one candidate set: task "${d.differing.task}" has ` +
      `${show(d.differing.candidates)}, unlike the first task "${d.first.task}" with ${show(d.first.candidates)}`
  )
}

/** A permutation cache: task candidate index → index in a reference label order. */
export class LabelMap {
  private readonly cache = new Map<string, Int32Array>()
  private readonly index = new Map<string, number>()
  private readonly refSet: string

  constructor(
    readonly method: Method,
    readonly labels: readonly string[]
  ) {
    labels.forEach((l, i) => this.index.set(l, i))
    this.refSet = asSet(labels)
  }

  /** Whether the task's candidate set is the reference set (any order). */
  covers(candidates: readonly string[], candKey: string): boolean {
    return this.cache.has(candKey) || asSet(candidates) === this.refSet
  }

  /**
   * perm[g] = reference index of the task's candidate g.
   * @throws MethodRefused when the task's candidate set is not the reference set.
   */
  perm(task: string, candidates: readonly string[], candKey: string): Int32Array {
    let p = this.cache.get(candKey)
    if (p !== undefined) return p
    if (asSet(candidates) !== this.refSet) {
      throw new MethodRefused(
        `${this.method} needs one candidate set: task "${task}" has ${show(candidates)}, the fit has ${show(this.labels)}`
      )
    }
    p = Int32Array.from(candidates, (c) => this.index.get(c)!)
    this.cache.set(candKey, p)
    return p
  }
}
