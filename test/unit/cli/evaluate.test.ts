import { describe, it, expect } from 'vitest'
import { join } from 'node:path'
import { evaluateCommand } from '../../../src/main/cli/commands/evaluate'
import { HYPER_NAMES, METHODS } from '../../../src/main/engine'
import { runCaptured } from './capture'

const IO = join(__dirname, '../../fixtures/io')
const CAL = join(IO, 'calibration.jsonl')
const run = (...argv: string[]) => runCaptured(evaluateCommand, argv)

describe('evaluate: arguments and bad input', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown flag', ['--traces', CAL, '--calibration', CAL], /calibration/],
    ['--folds below 2', ['--traces', CAL, '--folds', '1'], /--folds must be an integer ≥ 2/],
    ['--folds not a number', ['--traces', CAL, '--folds', 'five'], /--folds must be a number/],
    ['an unknown method', ['--traces', CAL, '--method', 'best'], /--method must be one of .*all/],
    ['hyperparameters (evaluate selects them)', ['--traces', CAL, '--b', '0.6'], /'--b'/],
    ['no --traces', [], /--traces FILE is required/]
  ]
  for (const [what, argv, message] of cases) {
    it(`${what} is exit 2`, async () => {
      const r = await run(...argv)
      expect(r.code).toBe(2)
      expect(r.out).toEqual([])
      expect(r.err.join('\n')).toMatch(message)
    })
  }

  it('a reader error is exit 2 with file:line and rule', async () => {
    const file = join(IO, 'invalid-trace', 'target-no-endorsement.jsonl')
    const r = await run('--traces', file)
    expect(r.code).toBe(2)
    expect(r.err).toEqual([expect.stringMatching(new RegExp(`^${file.replace(/[.]/g, '\\.')}:3: task bad move m2: target-no-endorsement — `))])
  })
})

describe('evaluate: a good run', () => {
  it('--method all prints one line per method, in the listed order', async () => {
    const r = await run('--traces', CAL, '--method', 'all', '--json')
    expect(r.err).toEqual([])
    expect(r.code).toBe(0)
    const rows = r.out.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.map((x) => x.method)).toEqual([...METHODS])
    for (const row of rows) {
      if ('refused' in row) {
        expect(Object.keys(row)).toEqual(['method', 'refused'])
        continue
      }
      expect(Object.keys(row)).toEqual(['method', 'accuracy', 'brier', 'nll', 'eceEw', 'eceEm', 'selected'])
      for (const k of ['accuracy', 'eceEw', 'eceEm'] as const) expect(row[k]).toBeGreaterThanOrEqual(0)
      expect(row.accuracy).toBeLessThanOrEqual(1)
      const selected = row.selected as Record<string, number>[]
      expect(selected).toHaveLength(5)
      const names = HYPER_NAMES[row.method as (typeof METHODS)[number]]
      for (const s of selected) expect(Object.keys(s).sort()).toEqual([...names].sort())
    }
  })

  it('defaults to the standing vote (docs/engine.md §11), 5 folds, seed 0, and honours --folds and --seed', async () => {
    const r = await run('--traces', CAL)
    expect(r.out.map((l) => (JSON.parse(l) as { method: string }).method)).toEqual(['standing-vote'])
    expect((await run('--traces', CAL, '--method', 'standing-vote', '--folds', '5', '--seed', '0')).out).toEqual(r.out)
    const three = await run('--traces', CAL, '--method', 'majority', '--folds', '3', '--seed', '2')
    expect((JSON.parse(three.out[0]) as { selected: unknown[] }).selected).toEqual([{}, {}, {}])
  })

  it('a method that cannot run on the file is a refused line, not a failure', async () => {
    // Two candidate sets in one file: Dawid–Skene and confusion need one shared set (docs/engine.md §5–§6).
    const mixed = join(IO, 'mixed-candidates.jsonl')
    const r = await run('--traces', mixed, '--method', 'confusion')
    expect(r.code).toBe(0)
    expect(Object.keys(JSON.parse(r.out[0]) as object)).toEqual(['method', 'refused'])
  })
})
