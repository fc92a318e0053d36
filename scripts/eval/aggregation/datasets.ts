import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Trace } from '@shared/trace'
import { formatReadError, readLabelCsvFile, type CsvDialect } from '../../../src/main/io'
import { convertMmluPro } from '../../../src/main/sim/mmlu-pro'
import { missingDataset } from '../../data-dir'

/**
 * The real councils of the data folder (scripts/data-dir.ts), read exactly as stored through the
 * project's own readers (docs/formats.md dialect flags), so the evaluation exercises the same path as
 * `--traces FILE`.
 */
export interface Dataset {
  /** Short name used in the table. */
  name: string
  /** Every task of the file, gold or not (unlabeled tasks still feed unsupervised EM). */
  traces: Trace[]
}

export interface DatasetSpec {
  name: string
  /** Path under the data directory, for the "missing" message. */
  path: string
  load(dataDir: string): Promise<Trace[]>
}

async function readCsv(answers: string, dialect: CsvDialect): Promise<Trace[]> {
  const res = await readLabelCsvFile(answers, dialect)
  if (res.errors.length > 0) throw new Error(`${answers}: ${res.errors.length} read errors, first: ${formatReadError(res.errors[0])}`)
  return res.traces
}

/** zhang-spectral-em: whitespace-separated `task worker label`, no header; gold `task label`. */
function zhang(name: string, file: string): DatasetSpec {
  const path = 'zhang-spectral-em'
  return {
    name,
    path: `${path}/${file}_crowd.txt`,
    load: (dir) =>
      readCsv(join(dir, path, `${file}_crowd.txt`), {
        columns: ['task', 'worker', 'label'],
        delimiter: 'space',
        header: false,
        gold: join(dir, path, `${file}_truth.txt`)
      })
  }
}

/** Every dataset of the aggregation table, in table order. */
export const DATASETS: readonly DatasetSpec[] = [
  {
    name: 'D_Product',
    path: 'zheng-d-product/answer.csv',
    load: (dir) =>
      readCsv(join(dir, 'zheng-d-product/answer.csv'), {
        columns: ['task', 'worker', 'label'],
        delimiter: 'comma',
        header: true,
        gold: join(dir, 'zheng-d-product/truth.csv')
      })
  },
  zhang('bluebird', 'bluebird'),
  zhang('rte', 'rte'),
  zhang('dog', 'dog'),
  zhang('web', 'web'),
  zhang('trec', 'trec'),
  {
    name: 'AdultContent2',
    path: 'gal-adultcontent/AdultContent2/labels.txt',
    // PROVENANCE.md: worker, task, label (not crowd-kit's order), tab-separated, no header.
    load: (dir) =>
      readCsv(join(dir, 'gal-adultcontent/AdultContent2/labels.txt'), {
        columns: ['worker', 'task', 'label'],
        delimiter: 'tab',
        header: false,
        gold: join(dir, 'gal-adultcontent/AdultContent2/gold.txt')
      })
  },
  {
    name: 'MMLU-Pro',
    path: 'mmlu-pro-llm-outputs',
    load: async (dir) => convertMmluPro(join(dir, 'mmlu-pro-llm-outputs')).traces
  }
]

/** Loads a dataset, or says where it was looked for and how to point at another data folder. */
export async function loadDataset(spec: DatasetSpec, dataDir: string): Promise<Dataset> {
  if (!existsSync(join(dataDir, spec.path))) throw new Error(`${spec.name}: ${missingDataset(join(dataDir, spec.path))}`)
  return { name: spec.name, traces: await spec.load(dataDir) }
}
