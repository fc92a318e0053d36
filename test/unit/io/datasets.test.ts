import { describe, it, expect } from 'vitest'
import { join } from 'node:path'
import { datasetDir } from '../../../scripts/data-dir'
import { DEFAULT_DIALECT, readTraceOrCsv, type CsvDialect, type CsvReadResult } from '../../../src/main/io'
import type { Trace } from '../../../src/shared/trace'
import { dataset, describeWith } from '../../helpers/prerequisites'

// The real datasets, read exactly as stored (never converted); counts from each PROVENANCE.md.
// GAL and crowd-kit ship in test/fixtures/data; the others come from the data folder.
const ZHENG = datasetDir('zheng-d-product')
const ZHANG = datasetDir('zhang-spectral-em')
const GAL = datasetDir('gal-adultcontent')
const CROWDKIT = datasetDir('crowdkit-ds-fixture')

interface Counts {
  rows: number
  tasks: number
  workers: number
  labels: Record<string, number>
  goldTasks: number
  gold: Record<string, number>
}

function counts(traces: Trace[]): Counts {
  const workers = new Set<string>()
  const labels: Record<string, number> = {}
  const gold: Record<string, number> = {}
  let rows = 0
  for (const t of traces) {
    for (const m of t.moves) {
      rows++
      workers.add(m.seat)
      labels[m.answer as string] = (labels[m.answer as string] ?? 0) + 1
    }
    if (typeof t.gold === 'string') gold[t.gold] = (gold[t.gold] ?? 0) + 1
  }
  return { rows, tasks: traces.length, workers: workers.size, labels, goldTasks: Object.values(gold).reduce((a, b) => a + b, 0), gold }
}

async function readOk(path: string, dialect: Partial<CsvDialect>): Promise<CsvReadResult> {
  const res = await readTraceOrCsv(path, { ...DEFAULT_DIALECT, ...dialect })
  expect(res.errors).toEqual([])
  // Every move is a round-0 propose and every task shares one candidate list.
  expect(res.traces.every((t) => t.moves.every((m) => m.round === 0 && m.force === 'propose'))).toBe(true)
  expect(new Set(res.traces.map((t) => t.candidates.join('\u0000'))).size).toBe(1)
  return res
}

describeWith(dataset('zheng-d-product'), 'zheng-d-product (answer.csv: question,worker,answer with a header)', () => {
  it('reads 24,945 rows, 8,315 tasks, 176 workers, K = 2, gold for every task', async () => {
    const res = await readOk(join(ZHENG, 'answer.csv'), { gold: join(ZHENG, 'truth.csv') })
    const c = counts(res.traces)
    expect([c.rows, c.tasks, c.workers, res.traces[0].candidates.length]).toEqual([24945, 8315, 176, 2])
    expect(c.gold).toEqual({ '0': 7304, '1': 1011 })
    expect(res.goldIgnored).toBe(0)
    // "Exactly 3 labels per task".
    expect(res.traces.every((t) => t.moves.length === 3)).toBe(true)
  })
})

describeWith(dataset('zhang-spectral-em'), 'zhang-spectral-em (*_crowd.txt task worker label, tab-separated, no header, some CRLF)', () => {
  const table: [string, number, number, number, number, number, Record<string, number>][] = [
    ['bluebird', 4212, 108, 39, 2, 108, { '1': 60, '2': 48 }],
    ['rte', 8000, 800, 164, 2, 800, { '1': 400, '2': 400 }],
    ['dog', 8070, 807, 109, 4, 807, { '1': 172, '2': 185, '3': 218, '4': 232 }],
    ['web', 15567, 2665, 177, 5, 2653, { '1': 330, '2': 481, '3': 689, '4': 534, '5': 619 }],
    ['trec', 88385, 19033, 762, 2, 2275, { '1': 1000, '2': 1275 }]
  ]
  for (const [name, rows, tasks, workers, k, goldTasks, gold] of table) {
    it(`${name}: ${rows} rows, ${tasks} tasks, ${workers} workers, K = ${k}, ${goldTasks} gold tasks`, async () => {
      const res = await readOk(join(ZHANG, `${name}_crowd.txt`), { delimiter: 'tab', header: false, gold: join(ZHANG, `${name}_truth.txt`) })
      const c = counts(res.traces)
      expect([c.rows, c.tasks, c.workers, res.traces[0].candidates.length, c.goldTasks]).toEqual([rows, tasks, workers, k, goldTasks])
      expect(c.gold).toEqual(gold)
      expect(res.goldIgnored).toBe(0)
    })
  }

  it('reads the same with --delimiter space (the files are "whitespace-separated")', async () => {
    const res = await readOk(join(ZHANG, 'bluebird_crowd.txt'), { delimiter: 'space', header: false })
    expect(counts(res.traces).rows).toBe(4212)
  })
})

describe('gal-adultcontent (labels.txt worker\\ttask\\tlabel, gold.txt task\\tlabel, no header)', () => {
  const dialect = { columns: ['worker', 'task', 'label'] as const, delimiter: 'tab' as const, header: false }

  it('AdultContent2: 92,721 rows (duplicates kept), 11,040 tasks, 825 workers, G/P/R/X; 333 of 1,517 gold tasks present', async () => {
    const res = await readOk(join(GAL, 'AdultContent2/labels.txt'), { ...dialect, gold: join(GAL, 'AdultContent2/gold.txt') })
    const c = counts(res.traces)
    expect([c.rows, c.tasks, c.workers]).toEqual([92721, 11040, 825])
    expect(c.labels).toEqual({ G: 70706, P: 10579, X: 7096, R: 4340 })
    expect(c.goldTasks).toBe(333)
    expect(res.goldIgnored).toBe(1517 - 333)
    // 2,773 rows are exact duplicates of an earlier row: each stays one propose.
    let dups = 0
    for (const t of res.traces) {
      const seen = new Set<string>()
      for (const m of t.moves) {
        const key = `${m.seat}\u0000${m.answer}`
        if (seen.has(key)) dups++
        seen.add(key)
      }
    }
    expect(dups).toBe(2773)
  })

  it('AdultContent (toy): 25 rows, 5 workers × 5 URLs, K = 2, 2 gold', async () => {
    const res = await readOk(join(GAL, 'AdultContent/labels.txt'), { ...dialect, gold: join(GAL, 'AdultContent/gold.txt') })
    const c = counts(res.traces)
    expect([c.rows, c.tasks, c.workers, res.traces[0].candidates.length, c.goldTasks]).toEqual([25, 5, 5, 2, 2])
  })
})

describe('crowdkit-ds-fixture (answers.csv, crowd-kit task,worker,label)', () => {
  it('reads 24 answers on 5 tasks × 5 workers, w3 missing on t1', async () => {
    const res = await readOk(join(CROWDKIT, 'answers.csv'), {})
    const c = counts(res.traces)
    expect([c.rows, c.tasks, c.workers]).toEqual([24, 5, 5])
    expect(res.traces[0].candidates).toEqual(['no', 'yes'])
    expect(res.traces[0].moves.map((m) => m.seat)).toEqual(['w1', 'w2', 'w4', 'w5'])
  })
})
