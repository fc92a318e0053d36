/**
 * The baselines on the real debates of the data folder's real-debates (docs/engine.md §6): majority-final
 * reproduces the accuracies the contract states, through the `posterior` and `evaluate` commands;
 * best-seat and ds-em run on their per-task candidate sets. Skipped, with the reason, only when the
 * data folder lacks them (failing under CI).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { certifyCommand } from '../../src/main/cli/commands/certify'
import { evaluateCommand } from '../../src/main/cli/commands/evaluate'
import { posteriorCommand } from '../../src/main/cli/commands/posterior'
import { datasetDir } from '../../scripts/data-dir'
import { dataset, describeWith } from '../helpers/prerequisites'

const DEBATES = datasetDir('real-debates')

async function run(cmd: typeof posteriorCommand, argv: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = []
  let err = ''
  const code = await cmd.run(argv, { out: (t) => out.push(t), err: (t) => (err += `${t}\n`) })
  return { code, out, err }
}

/** task → gold, from the trace file itself. */
function goldOf(file: string): Map<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '')
  return new Map(lines.map((l) => JSON.parse(l) as { task: string; gold: string }).map((t) => [t.task, t.gold]))
}

describeWith(dataset('real-debates'), 'baselines on the real debates (docs/engine.md §6 checks)', () => {
  const cases: [string, number][] = [
    ['cipher-phi4-gsm8k/traces.jsonl', 0.846],
    ['llm-agora/traces.jsonl', 0.218],
    ['nilgeoutim-gsm/traces.jsonl', 0.88],
    ['nilgeoutim-gsm/traces_run2.jsonl', 0.79],
    ['tt6746690-gsm/traces.jsonl', 0.8]
  ]
  for (const [name, expected] of cases) {
    it(`${name}: majority-final accuracy ${expected.toFixed(3)} over every task (seed 0); best-seat and ds-em run`, async () => {
      const file = join(DEBATES, name)
      const gold = goldOf(file)
      // majority-final reads no label: the calibration file is irrelevant to it.
      const post = await run(posteriorCommand, ['--traces', file, '--calibration', file, '--method', 'majority-final'])
      expect(post.err).toBe('')
      expect(post.code).toBe(0)
      const rows = post.out.map((l) => JSON.parse(l) as { task: string; answer: string; weights: object })
      expect(rows).toHaveLength(gold.size)
      const hits = rows.filter((r) => r.answer === gold.get(r.task)).length
      expect((hits / rows.length).toFixed(3)).toBe(expected.toFixed(3))
      expect(rows.every((r) => Object.keys(r.weights).length === 0)).toBe(true)

      const byMethod = new Map<string, Record<string, unknown>>()
      for (const m of ['majority-final', 'best-seat', 'ds-em', 'ds-em-full', 'confusion']) {
        const ev = await run(evaluateCommand, ['--traces', file, '--method', m])
        expect(ev.code).toBe(0)
        byMethod.set(m, JSON.parse(ev.out[0]) as Record<string, unknown>)
      }
      expect(byMethod.get('majority-final')).toMatchObject({ accuracy: hits / rows.length, selected: [{}, {}, {}, {}, {}] })
      // Per-task candidate sets: best-seat and ds-em run; ds-em-full and confusion need one shared set.
      for (const m of ['best-seat', 'ds-em']) {
        const r = byMethod.get(m)!
        expect(r.refused, m).toBeUndefined()
        expect(r.accuracy as number).toBeGreaterThan(0.15)
        expect(r.selected).toEqual([{}, {}, {}, {}, {}])
      }
      for (const m of ['ds-em-full', 'confusion']) expect(byMethod.get(m)!.refused).toMatch(/share one candidate set/)
    })
  }

  it('certify --labeled runs the baselines and ds-em on per-task candidate sets', async () => {
    const file = join(DEBATES, 'tt6746690-gsm/traces.jsonl')
    for (const m of ['majority-final', 'best-seat', 'ds-em']) {
      const r = await run(certifyCommand, ['--labeled', file, '--splits', '2', '--beta', '0.2', '--method', m])
      expect(r.err, m).toBe('')
      expect(r.code, m).toBe(0)
      expect(Object.keys(JSON.parse(r.out[r.out.length - 1]) as object)).toEqual(['splits'])
    }
    const full = await run(certifyCommand, ['--labeled', file, '--splits', '2', '--beta', '0.2', '--method', 'ds-em-full'])
    expect(full.code).toBe(2)
    expect(full.err).toMatch(/ds-em-full needs every task to share one candidate set/)
  })
})
