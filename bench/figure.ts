/**
 * One benchmark figure, printed next to its target and its physical reference.
 * `better` says which way is good, so the ratio reads "value / target" for times and
 * "target / value" for throughputs: ≤ 1 meets the target either way.
 */
export interface Figure {
  suite: string
  name: string
  value: number
  unit: string
  target: number | null
  better: 'lower' | 'higher'
  /** A physical floor measured in the same run (e.g. a bare loop over the same arrays). */
  reference: { name: string; value: number } | null
  note?: string
}

export interface BenchSuite {
  name: string
  /** What it measures, for `npm run bench -- --list`. */
  summary: string
  run(): Promise<Figure[]>
}

export function targetRatio(f: Figure): number | null {
  if (f.target === null || f.value === 0) return null
  return f.better === 'lower' ? f.value / f.target : f.target / f.value
}

/** Median of `runs` timed calls after `warmup` untimed ones, in milliseconds. */
export async function medianMs(fn: () => unknown | Promise<unknown>, runs = 5, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}
