/**
 * The valid files the fuzzer mutates: the examples, the io fixtures, and slices of the real
 * datasets in every CSV dialect they come in (comma with header, tab, whitespace, worker-first
 * columns, with and without a gold file). Slices keep each case small; the data folder is only read.
 * GAL and crowd-kit ship with the repository; the bluebird and D_Product slices need the data folder
 * (scripts/data-dir.ts): without it the CSV fuzz mutates the other seeds, and fuzz-importers.test.ts
 * reports the slices' check as skipped.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { datasetDir, datasetMissing } from '../../../scripts/data-dir'
import type { CsvDialect } from '../../../src/main/io'

export type SeedKind = 'traces' | 'csv' | 'labels'

export interface SeedFile {
  name: string
  kind: SeedKind
  /** Ends like the original, so the dialect's default delimiter (.tsv → tab) still applies. */
  fileName: string
  bytes: Buffer
  dialect: CsvDialect
  gold: Buffer | null
}

const ROOT = join(__dirname, '../../..')
const DEFAULT: CsvDialect = { columns: ['task', 'worker', 'label'], header: true }

const file = (path: string): Buffer => readFileSync(path)
/** The first `n` lines of a file (real datasets are large; a case needs only a few dozen rows). */
const head = (path: string, n: number): Buffer => Buffer.from(`${readFileSync(path, 'utf8').split('\n').slice(0, n).join('\n')}\n`)

const trace = (name: string, path: string): SeedFile => ({ name, kind: 'traces', fileName: `${name}.jsonl`, bytes: file(path), dialect: DEFAULT, gold: null })

export function traceSeeds(): SeedFile[] {
  return [
    trace('council', join(ROOT, 'resources/examples/council.trace.jsonl')),
    trace('traces', join(ROOT, 'test/fixtures/io/traces.jsonl')),
    trace('traces-abc', join(ROOT, 'test/fixtures/io/traces-abc.jsonl')),
    trace('calibration', join(ROOT, 'test/fixtures/io/calibration.jsonl')),
    trace('mixed', join(ROOT, 'test/fixtures/io/mixed-candidates.jsonl'))
  ]
}

/** RFC 4180 quoting (commas, doubled quotes) that none of the real files use. */
const QUOTED = 'task,worker,label\n"q,1",w1,"yes"\n"q,1","w""2",no\nq2,w1,"no"\n"q2",w3,yes\n'

/** Why the data-folder slices (bluebird, D_Product) are not among the CSV seeds, or null when they are. */
export const DATA_SLICES_MISSING: string | null = datasetMissing('zhang-spectral-em') ?? datasetMissing('zheng-d-product')

export function csvSeeds(): SeedFile[] {
  const csv = (name: string, fileName: string, bytes: Buffer, dialect: CsvDialect, gold: Buffer | null): SeedFile => ({ name, kind: 'csv', fileName, bytes, dialect, gold })
  const zhang = datasetDir('zhang-spectral-em')
  const gal = join(datasetDir('gal-adultcontent'), 'AdultContent')
  const zheng = datasetDir('zheng-d-product')
  const slices = DATA_SLICES_MISSING === null
  // The order is the fuzzer's: a case picks its seed by index.
  return [
    csv('crowd', 'crowd.csv', file(join(ROOT, 'resources/examples/crowd.csv')), DEFAULT, file(join(ROOT, 'resources/examples/crowd.gold.csv'))),
    csv('tiny', 'tiny.tsv', file(join(ROOT, 'test/fixtures/io/tiny.tsv')), DEFAULT, null),
    csv('crowdkit', 'answers.csv', file(join(datasetDir('crowdkit-ds-fixture'), 'answers.csv')), DEFAULT, null),
    csv('quoted', 'quoted.csv', Buffer.from(QUOTED), DEFAULT, Buffer.from('task,label\n"q,1",yes\nq2,no\n')),
    ...(slices ? [csv('bluebird', 'bluebird_crowd.txt', head(join(zhang, 'bluebird_crowd.txt'), 80), { columns: ['task', 'worker', 'label'], delimiter: 'space', header: false }, head(join(zhang, 'bluebird_truth.txt'), 20))] : []),
    csv('adult', 'labels.txt', head(join(gal, 'labels.txt'), 60), { columns: ['worker', 'task', 'label'], delimiter: 'tab', header: false }, file(join(gal, 'gold.txt'))),
    ...(slices ? [csv('zheng', 'answer.csv', head(join(zheng, 'answer.csv'), 60), DEFAULT, head(join(zheng, 'truth.csv'), 40))] : [])
  ]
}

/** Label files name tasks of the council example, which the fuzz database holds from the start. */
export function labelSeeds(): SeedFile[] {
  const extra = [
    { format: 'arbiter.labels/1', task: 'medclaim-0001', label: 'false', source: 'escalation', reviewer: 'cy', at: '2026-12-01T08:30:00+02:00', note: 'second look' },
    { task: 'trivia-0001', label: 'Jupiter', source: 'random', reviewer: 'dee', at: '2026-12-01T09:00:00.123Z', extra: { kept: [1, 2] } }
  ]
  const label = (name: string, bytes: Buffer): SeedFile => ({ name, kind: 'labels', fileName: `${name}.labels.jsonl`, bytes, dialect: DEFAULT, gold: null })
  return [
    label('council-labels', file(join(ROOT, 'resources/examples/council.labels.jsonl'))),
    label('more-labels', Buffer.from(`${extra.map((l) => JSON.stringify(l)).join('\n')}\n`))
  ]
}

export const COUNCIL_TRACES = join(ROOT, 'resources/examples/council.trace.jsonl')
