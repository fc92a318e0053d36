import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { datasetDir } from '../../../scripts/data-dir'
import { posteriorCommand } from '../../../src/main/cli/commands/posterior'
import { runCaptured } from './capture'

const IO = join(__dirname, '../../fixtures/io')
const CAL = join(IO, 'calibration.jsonl')
const TRACES = join(IO, 'traces.jsonl')
const run = (...argv: string[]) => runCaptured(posteriorCommand, argv)

interface Expected { rule: string; file: string; gold?: string; errorFile?: 'gold'; line: number; task: string | null; move: string | null }
const load = (dir: string): Expected[] => JSON.parse(readFileSync(join(IO, dir, 'expected.json'), 'utf8')) as Expected[]

/** The stderr line docs/formats.md asks for: `file:line: task T move M: rule — message`. */
function errorLine(file: string, e: Expected): RegExp {
  const where = [e.task === null ? '' : `task ${e.task}`, e.move === null ? '' : `move ${e.move}`].filter((s) => s !== '').join(' ')
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${esc(file)}:${e.line}: ${where === '' ? '' : esc(where) + ': '}${esc(e.rule)} — .+`)
}

describe('posterior: bad input files are exit 2 with line and rule', () => {
  for (const e of load('invalid-trace')) {
    it(`trace rule ${e.rule}`, async () => {
      const file = join(IO, 'invalid-trace', e.file)
      const r = await run('--traces', file, '--calibration', CAL)
      expect(r.code).toBe(2)
      expect(r.out).toEqual([])
      expect(r.err).toHaveLength(1)
      expect(r.err[0]).toMatch(errorLine(file, e))
    })
  }

  for (const e of load('invalid-csv')) {
    it(`CSV rule ${e.rule}`, async () => {
      const file = join(IO, 'invalid-csv', e.file)
      const gold = e.gold === undefined ? [] : ['--gold', join(IO, 'invalid-csv', e.gold)]
      const r = await run('--traces', file, '--calibration', CAL, ...gold)
      expect(r.code).toBe(2)
      expect(r.err).toHaveLength(1)
      expect(r.err[0]).toMatch(errorLine(e.errorFile === 'gold' ? join(IO, 'invalid-csv', e.gold as string) : file, e))
    })
  }

  it('reports the errors of both files, calibration included', async () => {
    const bad1 = join(IO, 'invalid-trace', 'missing-answer.jsonl')
    const bad2 = join(IO, 'invalid-trace', 'round-decreasing.jsonl')
    const r = await run('--traces', bad1, '--calibration', bad2)
    expect(r.code).toBe(2)
    expect(r.err.map((l) => l.split(': ').slice(-1)[0].split(' — ')[0])).toEqual(['missing-answer', 'round-decreasing'])
  })

  it('a missing file is exit 2', async () => {
    const r = await run('--traces', join(IO, 'no-such-file.jsonl'), '--calibration', CAL)
    expect(r.code).toBe(2)
    expect(r.err.join('\n')).toMatch(/cannot read .*no-such-file\.jsonl/)
  })
})

describe('posterior: arguments', () => {
  const base = ['--traces', TRACES, '--calibration', CAL]
  const cases: [string, string[], RegExp][] = [
    ['a partial hyperparameter set', ['--method', 'per-agent', '--b', '0.6', '--s', '16'], /partial hyperparameter set for per-agent: missing --kappa/],
    ['a flag the method does not use', ['--method', 'shared', '--b', '0.6', '--s', '16', '--kappa', '1'], /shared does not use --kappa/],
    ['hyperparameters for a method without any', ['--method', 'majority', '--tau', '1'], /majority does not use --tau; it takes no hyperparameters/],
    ['confusion without tau', ['--method', 'confusion', '--lambda', '8'], /missing --tau/],
    ['b outside (0, 1)', ['--method', 'per-agent', '--b', '1.5', '--kappa', '1', '--s', '16'], /--b must be in \(0, 1\)/],
    ['a hyperparameter that is not a number', ['--method', 'per-agent', '--b', '0.6', '--kappa', 'x', '--s', '16'], /--kappa must be a number/],
    ['an unknown flag', ['--bogus', '1'], /bogus/],
    ['a positional argument', ['extra'], /extra/],
    ['an unknown method', ['--method', 'wisdom'], /--method must be one of majority, majority-final, best-seat, gated/],
    ['a fractional seed', ['--seed', '1.5'], /--seed must be an integer/],
    ['bad --columns', ['--columns', 'task,label'], /--columns/],
    ['bad --delimiter', ['--delimiter', 'pipe'], /--delimiter/]
  ]
  for (const [what, extra, message] of cases) {
    it(`${what} is exit 2 with the reason`, async () => {
      const r = await run(...base, ...extra)
      expect(r.code).toBe(2)
      expect(r.out).toEqual([])
      expect(r.err.join('\n')).toMatch(message)
    })
  }

  it('--traces and --calibration are required', async () => {
    expect((await run('--calibration', CAL)).err.join('')).toMatch(/--traces FILE is required/)
    expect((await run('--traces', TRACES)).err.join('')).toMatch(/--calibration FILE is required/)
  })

  it('--help prints the usage', async () => {
    const r = await run('--help')
    expect(r.code).toBe(0)
    expect(r.out[0]).toMatch(/^Usage: arbiter posterior/)
  })
})

describe('posterior: a good run', () => {
  const tasks = readFileSync(TRACES, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { task: string }).task)

  function checkLines(out: string[], expectedTasks: string[], candidates: string[]): void {
    expect(out).toHaveLength(expectedTasks.length)
    const rows = out.map((l) => JSON.parse(l) as { task: string; posterior: Record<string, number>; answer: string; weights: Record<string, number> })
    expect(rows.map((r) => r.task)).toEqual(expectedTasks)
    for (const [i, r] of rows.entries()) {
      expect(Object.keys(r)).toEqual(['task', 'posterior', 'answer', 'weights'])
      expect(Object.keys(r.posterior).sort()).toEqual([...candidates].sort())
      expect(Object.values(r.posterior).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9)
      expect(candidates).toContain(r.answer)
      expect(out[i]).not.toMatch(/\n/)
    }
  }

  it('prints one JSON line per task, in file order (default per-agent, CV-selected)', async () => {
    const r = await run('--traces', TRACES, '--calibration', CAL, '--json')
    expect(r.err).toEqual([])
    expect(r.code).toBe(0)
    checkLines(r.out, tasks, ['yes', 'no'])
    // One-coin methods report a weight for each seat that moved in the task (docs/engine.md §6).
    expect(Object.keys((JSON.parse(r.out[0]) as { weights: object }).weights).sort()).toEqual(['A', 'B', 'C'])
  })

  it('runs every method, with and without a full hyperparameter set, and is deterministic', async () => {
    const sets: string[][] = [
      ['--method', 'majority'],
      ['--method', 'majority-final'],
      ['--method', 'best-seat'],
      ['--method', 'gated'],
      ['--method', 'ds-em'],
      ['--method', 'ds-em-full'],
      ['--method', 'shared', '--b', '0.7', '--s', '16'],
      ['--method', 'per-agent', '--b', '0.7', '--kappa', '1', '--s', '16', '--seed', '3'],
      ['--method', 'tempered', '--b', '0.7', '--kappa', '1', '--s', '16', '--tau', '0.5'],
      ['--method', 'confusion', '--lambda', '8', '--tau', '1'],
      ['--method', 'confusion']
    ]
    for (const flags of sets) {
      const r = await run('--traces', TRACES, '--calibration', CAL, ...flags)
      expect(r.err, flags.join(' ')).toEqual([])
      expect(r.code).toBe(0)
      checkLines(r.out, tasks, ['yes', 'no'])
      expect((await run('--traces', TRACES, '--calibration', CAL, ...flags)).out).toEqual(r.out)
    }
  })

  it('reads label CSV by extension (.tsv: tab) with the dialect flags', async () => {
    const r = await run('--traces', join(IO, 'tiny.tsv'), '--calibration', CAL, '--method', 'majority')
    expect(r.err).toEqual([])
    checkLines(r.out, ['t1', 't2'], ['yes', 'no'])
    const crowd = join(datasetDir('crowdkit-ds-fixture'), 'answers.csv')
    const r2 = await run('--traces', crowd, '--calibration', CAL, '--method', 'ds-em-full')
    expect(r2.err).toEqual([])
    checkLines(r2.out, ['t1', 't2', 't3', 't4', 't5'], ['no', 'yes'])
  })

  it('a method the engine refuses on these files is exit 2 with its reason', async () => {
    const r = await run('--traces', join(IO, 'traces-abc.jsonl'), '--calibration', CAL, '--method', 'confusion', '--lambda', '8', '--tau', '1')
    expect(r.code).toBe(2)
    expect(r.out).toEqual([])
    expect(r.err.join('\n')).toMatch(/^arbiter posterior: .+/)
  })
})
