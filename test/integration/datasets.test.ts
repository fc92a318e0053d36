/**
 * The real datasets (scripts/data-dir.ts: the data folder, or the copies shipped in test/fixtures/data) import as they are stored: through the
 * `import` command with their CSV dialect flags, each into its own database (their task ids
 * overlap), with the counts their PROVENANCE.md gives; MMLU-Pro through `convertMmluPro`. D_Product
 * then fits and decides end to end, with half its gold given as random labels and the other half
 * kept hidden to score what the certificate acted on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fitCommand } from '../../src/main/cli/commands/fit'
import { importCommand } from '../../src/main/cli/commands/import'
import { exportCommand } from '../../src/main/cli/commands/export'
import { hashHex } from '../../src/main/engine/hash'
import { readLabelCsvFile, DEFAULT_DIALECT } from '../../src/main/io'
import { convertMmluPro, toJsonl } from '../../src/main/sim'
import { openStore } from '../../src/main/store'
import { datasetDir } from '../../scripts/data-dir'
import { dataset, describeWith, itWith } from '../helpers/prerequisites'

const ZHENG = datasetDir('zheng-d-product')
const ZHANG = datasetDir('zhang-spectral-em')
const GAL = datasetDir('gal-adultcontent')
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-data-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function run(cmd: typeof importCommand, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cmd.run(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) })
  return { code, out, err }
}

async function importInto(name: string, argv: string[]): Promise<{ db: string; summary: Record<string, number | string> }> {
  const db = join(dir, `${name}.db`)
  const r = await run(importCommand, [...argv, '--db', db, '--json'])
  expect(r.code, r.err).toBe(0)
  return { db, summary: JSON.parse(r.out) as Record<string, number | string> }
}

describe('the real datasets import as stored', () => {
  const tab = ['--delimiter', 'tab', '--no-header']
  const zhang = (name: string, gold = true): string[] => [join(ZHANG, `${name}_crowd.txt`), ...tab, ...(gold ? ['--gold', join(ZHANG, `${name}_truth.txt`)] : [])]
  const cases: [string, string, string[], number, number, number][] = [
    ['zheng-d-product', 'zheng-d-product', [join(ZHENG, 'answer.csv'), '--gold', join(ZHENG, 'truth.csv')], 8315, 24945, 176],
    ['bluebird', 'zhang-spectral-em', zhang('bluebird'), 108, 4212, 39],
    ['rte', 'zhang-spectral-em', zhang('rte'), 800, 8000, 164],
    ['dog', 'zhang-spectral-em', zhang('dog'), 807, 8070, 109],
    ['web', 'zhang-spectral-em', zhang('web'), 2665, 15567, 177],
    ['trec', 'zhang-spectral-em', zhang('trec', false), 19033, 88385, 762],
    ['adultcontent2', 'gal-adultcontent', [join(GAL, 'AdultContent2/labels.txt'), '--columns', 'worker,task,label', ...tab, '--gold', join(GAL, 'AdultContent2/gold.txt')], 11040, 92721, 825],
    ['crowdkit', 'crowdkit-ds-fixture', [join(datasetDir('crowdkit-ds-fixture'), 'answers.csv')], 5, 24, 5]
  ]
  for (const [name, source, argv, tasks, moves, seats] of cases) {
    itWith(dataset(source), `${name}: ${tasks} tasks, ${moves} moves, ${seats} seats`, async () => {
      const { db, summary } = await importInto(name, argv)
      expect(summary).toMatchObject({ status: 'imported', kind: 'csv', tasks, moves, seats, labels: 0 })
      const store = await openStore(db, { readonly: true })
      expect(await store.counts()).toMatchObject({ tasks, moves, seats, labels: 0 })
      await store.close()
      const again = await run(importCommand, [...argv, '--db', db])
      expect(again.out).toMatch(/already imported/)
    })
  }

  itWith(dataset('zhang-spectral-em'), 'bluebird with --gold-as random: gold becomes labels by import:<file>', async () => {
    const { db, summary } = await importInto('bluebird-gold', [...zhang('bluebird'), '--gold-as', 'random'])
    expect(summary).toMatchObject({ tasks: 108, labels: 108 })
    const store = await openStore(db, { readonly: true })
    const labels = await store.effectiveLabels()
    expect(labels).toHaveLength(108)
    expect(new Set(labels.map((l) => `${l.source} ${l.reviewer}`))).toEqual(new Set(['random import:bluebird_crowd.txt']))
    await store.close()
  })

  itWith(dataset('mmlu-pro-llm-outputs'), 'MMLU-Pro through convertMmluPro: 12,020 five-seat tasks', async () => {
    const { traces, stats } = convertMmluPro(datasetDir('mmlu-pro-llm-outputs'))
    const file = join(dir, 'mmlu-pro.trace.jsonl')
    writeFileSync(file, traces.map((t) => `${toJsonl(t)}\n`).join(''))
    const { summary } = await importInto('mmlu', [file])
    expect(summary).toMatchObject({ status: 'imported', kind: 'traces', tasks: stats.tasks, moves: stats.moves, seats: 5 })
  })
})

describeWith(dataset('zheng-d-product'), 'D_Product fits and decides end to end', () => {
  it('half the gold as random labels; the certificate acts on the rest within its budget', async () => {
    const answers = join(ZHENG, 'answer.csv')
    const gold = join(ZHENG, 'truth.csv')
    const { db } = await importInto('d-product-fit', [answers, '--gold', gold])
    const read = await readLabelCsvFile(answers, { ...DEFAULT_DIALECT, gold })
    const truth = new Map(read.traces.map((t) => [t.task, t.gold as string]))
    // A uniform half, by a seeded hash of the task id: the calibration set C.
    const calibration = read.traces.filter((t) => hashHex(`0:test-half:${t.task}`) < '8')
    const labels = join(dir, 'd-product.labels.jsonl')
    writeFileSync(labels, calibration.map((t) => `${JSON.stringify({ task: t.task, label: t.gold, source: 'random', reviewer: 'test', at: '2026-11-30T12:00:00Z' })}\n`).join(''))
    expect((await run(importCommand, [labels, '--db', db])).code).toBe(0)

    const fit = await run(fitCommand, ['--db', db, '--json'])
    expect(fit.code, fit.err).toBe(0)
    const summary = JSON.parse(fit.out) as { method: string; metrics: { decided: number; acted: number }; resolved: { beta: number | null } }
    expect(summary.method).toBe('standing-vote') // the default (docs/engine.md §11)
    expect(summary.metrics.decided).toBe(8315 - calibration.length)

    const out = await run(exportCommand, ['decisions', '--db', db, '--decision', 'act', '--out', join(dir, 'acted.jsonl')])
    expect(out.code, out.err).toBe(0)
    const { readFileSync } = await import('node:fs')
    const acted = readFileSync(join(dir, 'acted.jsonl'), 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { task: string; answer: string })
    expect(acted).toHaveLength(summary.metrics.acted)
    const wrong = acted.filter((r) => truth.get(r.task) !== r.answer).length
    // The certificate's guarantee: wrong actions over all decided tasks stay within β (with room for chance).
    if (summary.resolved.beta !== null) expect(wrong / summary.metrics.decided).toBeLessThanOrEqual(summary.resolved.beta)
  })
})
