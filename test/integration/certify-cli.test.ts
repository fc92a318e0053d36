import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import type { CliIo, Command } from '../../src/main/cli/command'
import { certifyCommand } from '../../src/main/cli/commands/certify'
import { driftCommand } from '../../src/main/cli/commands/drift'
import { buildTallies, driftOfTallies, SeatIndex } from '../../src/main/engine'
import { cleanCouncilConfig, generateCouncilArray, sleeperCouncilConfig, toJsonl } from '../../src/main/sim'

/**
 * `certify` and `drift` through the CLI contract of docs/formats.md on simulated councils (what the
 * certificate must do): the default state acts on a clean council; the split protocol keeps the mean
 * wrong-action rate within β on a 5,000-task council; a sleeper seat is flagged by drift before the
 * end of its stream; bad input is exit 2.
 */

async function run(command: Command, argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) }
  return { code: await command.run(argv, io), out, err }
}

let dir = ''
const file = (name: string): string => join(dir, name)
function write(name: string, traces: readonly Trace[]): string {
  writeFileSync(file(name), traces.map((t) => `${toJsonl(t)}\n`).join(''))
  return file(name)
}
const clean = (tasks: number, seed: number, prefix: string): Trace[] => generateCouncilArray({ ...cleanCouncilConfig({ tasks, seed }), taskPrefix: prefix })
const sleeper = (tasks: number): Trace[] => generateCouncilArray(sleeperCouncilConfig({ tasks, seed: 7 }))

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-certify-'))
  write('cal.jsonl', clean(2000, 1, 'cal'))
  write('traces.jsonl', clean(2000, 2, 'new'))
  write('labeled.jsonl', clean(5000, 3, 'lab'))
  write('sleeper.jsonl', sleeper(2000))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('certify --calibration --traces (docs/formats.md)', () => {
  it('acts on a clean council with the default (social) state, one line per task then the summary', async () => {
    const r = await run(certifyCommand, ['--calibration', file('cal.jsonl'), '--traces', file('traces.jsonl'), '--beta', '0.2'])
    expect(r.code).toBe(0)
    expect(r.out).toHaveLength(2001)
    const tasks = r.out.slice(0, 2000).map((l) => JSON.parse(l))
    expect(Object.keys(tasks[0])).toEqual(['task', 'decision', 'stopRound', 'answer', 'bound', 'k', 'n', 'gap', 'why'])
    expect(Object.keys(tasks[0].why)).toEqual(['qhat', 'bias', 'conc', 'n'])
    expect(tasks[0].task).toBe('new-0001')
    for (const t of tasks) {
      expect(t.bound).toHaveLength(3)
      expect(t.n).toHaveLength(3)
      t.n.forEach((n: number, r: number) => expect(n).toBeGreaterThanOrEqual(t.k[r]))
      expect(t.why.n).toBe(t.n[t.bound.indexOf(Math.max(...t.bound))]) // why is at argmax_t L_t, first on ties
      expect((t.decision === 'act') === t.gap <= 0).toBe(true)
      if (t.decision === 'act') expect(t.bound[t.stopRound]).toBeGreaterThanOrEqual(1 - 0.15)
    }
    const { summary } = JSON.parse(r.out[2000])
    expect(Object.keys(summary)).toEqual(['act', 'accAct', 'wa', 'waOverBeta', 'rnd', 'beta', 'alpha', 'lambda', 'reason'])
    console.log(`certify, clean council, social, β 0.2: ${JSON.stringify(summary)}`)
    expect(summary.act).toBeGreaterThan(0.3)
    expect(summary.wa).toBeLessThanOrEqual(0.2)
    expect(summary.alpha).toBeCloseTo(0.15, 12)
  })

  it('relative and auto budgets report λ; auto defers everything with its reason when no λ is feasible', async () => {
    const rel = await run(certifyCommand, ['--calibration', file('cal.jsonl'), '--traces', file('traces.jsonl'), '--budget-lambda', '2.5', '--state', 'posterior'])
    const s = JSON.parse(rel.out[rel.out.length - 1]).summary
    expect(s.lambda).toBe(2.5)
    expect(s.beta).toBeGreaterThan(0)
    const auto = await run(certifyCommand, ['--calibration', file('cal.jsonl'), '--traces', file('traces.jsonl'), '--budget-lambda', 'auto'])
    const a = JSON.parse(auto.out[auto.out.length - 1]).summary
    expect(auto.code).toBe(0)
    // On this council no λ keeps WA/β ≤ 0.10 on C2 (AoD B.5's feasibility rule), so λ = auto defers
    // everything with its reason — and still reports each task's bound and why (docs/engine.md §8.8).
    expect([a.act, a.beta, a.alpha, a.lambda, a.reason]).toEqual([0, null, null, null, 'insufficient evidence'])
    const first = JSON.parse(auto.out[0])
    expect([first.decision, first.gap]).toEqual(['defer', null])
    expect(first.bound.every((L: unknown) => typeof L === 'number')).toBe(true)
    expect(first.why).not.toBeNull()
  })

  it('--bound hoeffding is AoD as published, the default binomial bound is tighter; n is printed either way', async () => {
    const argv = ['--calibration', file('cal.jsonl'), '--traces', file('traces.jsonl'), '--beta', '0.2']
    const binomial = await run(certifyCommand, argv)
    const explicit = await run(certifyCommand, [...argv, '--bound', 'binomial'])
    const hoeffding = await run(certifyCommand, [...argv, '--bound', 'hoeffding'])
    expect(hoeffding.code).toBe(0)
    expect(explicit.out).toEqual(binomial.out)
    const lines = (r: { out: string[] }): { bound: number[]; k: number[]; n: number[]; why: { qhat: number; bias: number; conc: number; n: number } }[] =>
      r.out.slice(0, 2000).map((l) => JSON.parse(l))
    const b = lines(binomial)
    const h = lines(hoeffding)
    let tighter = 0
    for (let i = 0; i < 2000; i++) {
      expect(h[i].n).toHaveLength(3)
      expect(typeof h[i].why.n).toBe('number')
      // Hoeffding's conc is c_k = sqrt(ln(T·|𝒦_used|/δ)/(2k)) with 𝒦_used = (128, 256, 512) (|D_loc| = 1600).
      const k = h[i].k[h[i].bound.indexOf(Math.max(...h[i].bound))]
      expect(h[i].why.conc).toBeCloseTo(Math.sqrt(Math.log((3 * h[i].bound.length) / 0.03) / (2 * k)), 12)
      if (Math.max(...b[i].bound) > Math.max(...h[i].bound)) tighter++
    }
    expect(tighter).toBeGreaterThan(1000)
    const sb = JSON.parse(binomial.out[2000]).summary
    const sh = JSON.parse(hoeffding.out[2000]).summary
    console.log(`certify β 0.2: binomial ${JSON.stringify(sb)}; hoeffding ${JSON.stringify(sh)}`)
    expect(sb.act).toBeGreaterThanOrEqual(sh.act)
    expect(sb.wa).toBeLessThanOrEqual(0.2)
  })

  it('gold-based metrics are null unless every task of --traces has gold', async () => {
    const traces = clean(300, 9, 'x').map((t, i) => (i === 5 ? { ...t, gold: null } : t))
    const r = await run(certifyCommand, ['--calibration', file('cal.jsonl'), '--traces', write('partial.jsonl', traces), '--beta', '0.3'])
    const s = JSON.parse(r.out[r.out.length - 1]).summary
    expect([s.accAct, s.wa, s.waOverBeta]).toEqual([null, null, null])
    expect(typeof s.act).toBe('number')
  })

  it('bad input is exit 2 with the reason on stderr', async () => {
    const cal = file('cal.jsonl')
    const tr = file('traces.jsonl')
    const cases: [string[], RegExp][] = [
      [['--calibration', cal, '--traces', tr], /exactly one budget flag/],
      [['--calibration', cal, '--traces', tr, '--beta', '0.2', '--budget-lambda', 'auto'], /exactly one budget flag/],
      [['--calibration', cal, '--traces', tr, '--beta', '1.5'], /--beta must be in \[0, 1\]/],
      [['--calibration', cal, '--traces', tr, '--budget-lambda', 'often'], /--budget-lambda must be a number/],
      [['--calibration', cal, '--traces', tr, '--beta', '0.2', '--state', 'vibes'], /social, posterior/],
      [['--calibration', cal, '--traces', tr, '--beta', '0.2', '--bound', 'bernstein'], /--bound must be one of binomial, hoeffding; got "bernstein"/],
      [['--calibration', cal, '--traces', tr, '--beta', '0.2', '--b', '0.7'], /partial hyperparameter set/],
      [['--labeled', cal, '--traces', tr, '--splits', '2', '--beta', '0.2'], /replace --calibration\/--traces/],
      [['--labeled', cal, '--beta', '0.2'], /--splits N is required with --labeled/],
      [['--labeled', file('partial.jsonl'), '--splits', '2', '--beta', '0.2'], /needs gold/],
      [['--calibration', file('missing.jsonl'), '--traces', tr, '--beta', '0.2'], /cannot read/]
    ]
    for (const [argv, message] of cases) {
      const r = await run(certifyCommand, argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.out).toEqual([])
      expect(r.err.join('\n')).toMatch(message)
    }
  })
})

describe('certify --labeled --splits: the evaluation protocol (AoD §6; MAPIE-style validity)', () => {
  for (const [state, beta] of [['social', 0.25], ['posterior', 0.15]] as const) {
    it(`10 splits of a 5,000-task council keep the mean WA within β = ${beta} (${state})`, async () => {
      const r = await run(certifyCommand, ['--labeled', file('labeled.jsonl'), '--splits', '10', '--beta', String(beta), '--state', state])
      expect(r.code).toBe(0)
      expect(r.out).toHaveLength(11)
      r.out.slice(0, 10).forEach((l) => expect(Object.keys(JSON.parse(l))).toEqual(['summary']))
      const { splits } = JSON.parse(r.out[10])
      expect(Object.keys(splits)).toEqual(['act', 'accAct', 'wa', 'waOverBeta', 'mean', 'max'])
      const wa = splits.wa as number[]
      const over = wa.filter((w) => w > beta).length
      console.log(
        `${state} β ${beta}: mean WA ${splits.mean.wa.toFixed(4)}, per-split max ${splits.max.wa.toFixed(4)}, splits over β ${over}/10, ` +
          `mean Act ${splits.mean.act.toFixed(3)}, mean Acc|Act ${splits.mean.accAct.toFixed(3)}`
      )
      expect(splits.mean.wa).toBeLessThanOrEqual(beta)
      expect(splits.max.wa).toBe(Math.max(...wa))
      expect(over).toBeLessThanOrEqual(1) // the guarantee holds per split with probability ≥ 1 − δ
      expect(splits.mean.act).toBeGreaterThan(0) // and it is not vacuous
    })
  }
})

describe('drift (docs/engine.md §9) on a sleeper council', () => {
  it('flags the seat that turns hostile, by far the largest shift', async () => {
    const r = await run(driftCommand, ['--calibration', file('sleeper.jsonl')])
    expect(r.code).toBe(0)
    const lines = r.out.map((l) => JSON.parse(l))
    expect(lines.map((l) => l.seat)).toEqual(['A1', 'A2', 'A3'])
    expect(Object.keys(lines[0])).toEqual(['seat', 'recent', 'rest', 'diff', 'floor', 'flagged'])
    expect(lines[2].flagged).toBe(true)
    expect(lines[2].diff).toBeLessThan(0)
    // Honest seats can shift a little: once A3 turns, their challenges of its wrong answers are
    // endorsements consistent with the gold (§2), so their r rises slightly — never like A3's fall.
    for (const honest of lines.slice(0, 2)) expect(Math.abs(lines[2].diff)).toBeGreaterThan(10 * Math.abs(honest.diff))
  })

  it('is flagged before the end of the stream, soon after the turn', () => {
    // The stream as it arrives: labels in order; drift re-run as labels accumulate.
    const traces = sleeper(2000)
    const seats = new SeatIndex()
    const labeled = traces.map((t, i) => ({ tallies: buildTallies(t, seats), time: i }))
    const turn = 1000
    let first = -1
    for (const n of [900, 1000, 1100, 1200, 1300, 1500, 1750, 2000]) {
      const report = driftOfTallies(labeled.slice(0, n))
      const a3 = report.find((s) => s.seat === 'A3')!
      console.log(`sleeper after ${n} labels: A3 diff ${a3.diff.toFixed(3)} floor ${a3.floor.toFixed(4)} flagged ${a3.flagged}; others flagged ${report.filter((s) => s.seat !== 'A3' && s.flagged).length}`)
      if (n <= turn) expect(a3.flagged).toBe(false)
      if (a3.flagged && first < 0) {
        first = n
        // The first alarm is the sleeper's alone.
        expect(report.filter((s) => s.seat !== 'A3').every((s) => !s.flagged)).toBe(true)
      }
    }
    expect(first).toBeGreaterThan(turn)
    expect(first).toBeLessThan(2000)
  })

  it('orders labels by --labels time, not by file line', async () => {
    // Label times reversed: the "recent" 20 % are the stream's first tasks, when A3 was honest.
    const traces = sleeper(2000)
    const labels = traces.map((t, i) => ({ task: t.task, label: t.gold, source: 'random', reviewer: 'test', at: new Date(Date.UTC(2026, 0, 1) + (traces.length - i) * 60_000).toISOString() }))
    writeFileSync(file('labels.jsonl'), labels.map((l) => `${JSON.stringify(l)}\n`).join(''))
    const r = await run(driftCommand, ['--calibration', file('sleeper.jsonl'), '--labels', file('labels.jsonl')])
    expect(r.code).toBe(0)
    const a3 = JSON.parse(r.out[2])
    expect(a3.seat).toBe('A3')
    expect(a3.diff).toBeGreaterThan(0)
    expect(a3.flagged).toBe(true)
    writeFileSync(file('bad-labels.jsonl'), `${JSON.stringify({ ...labels[0], task: 'nope' })}\n`)
    const bad = await run(driftCommand, ['--calibration', file('sleeper.jsonl'), '--labels', file('bad-labels.jsonl')])
    expect(bad.code).toBe(2)
    expect(bad.err.join('\n')).toMatch(/unknown-task/)
  })

  it('says "no time order" and flags no seat when more than half of the labels share one time (imported at once)', async () => {
    // The sleeper's labels, all stamped at one time: the split falls back on file order, which is
    // no time order — the turn is in the file's last 20 %, yet the verdict is withheld.
    const traces = sleeper(2000)
    const at = new Date(Date.UTC(2026, 0, 1)).toISOString()
    writeFileSync(file('one-time.jsonl'), traces.map((t) => `${JSON.stringify({ task: t.task, label: t.gold, source: 'random', reviewer: 'import', at })}\n`).join(''))
    const r = await run(driftCommand, ['--calibration', file('sleeper.jsonl'), '--labels', file('one-time.jsonl')])
    expect(r.code).toBe(0)
    const lines = r.out.map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.seat, l.noTimeOrder, l.flagged])).toEqual([['A1', true, false], ['A2', true, false], ['A3', true, false]])
    // The figures are those of the file-order split: A3's fall is still measured, just not judged.
    const timed = await run(driftCommand, ['--calibration', file('sleeper.jsonl')])
    const byLine = timed.out.map((l) => JSON.parse(l))
    expect(byLine[2].flagged).toBe(true)
    expect(lines.map((l) => [l.recent, l.rest, l.diff, l.floor])).toEqual(byLine.map((l) => [l.recent, l.rest, l.diff, l.floor]))
  })
})
