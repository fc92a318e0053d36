import { isCsvPath, type CsvDialect } from './csv-dialect'
import { readLabelCsvFile, type CsvReadResult } from './csv-reader'
import { isRoundsFile } from './rounds-form'
import { readRoundsFile } from './rounds-reader'
import { readTraceFile } from './trace-reader'

/**
 * One entry point for `--traces` / `--calibration`: a file in the debate-rounds form (a CSV/TSV
 * whose header, or a JSONL file whose first object, names `round`, `seat` and `answer` and no
 * `moves`) is read as that form; else a `.csv`, `.tsv` or `.txt` file is label-aggregation CSV read
 * with `dialect` (docs/formats.md), anything else trace JSONL. The dialect, gold file included, applies
 * to the label-aggregation form only (the rounds form takes its delimiter). `goldIgnored` is 0
 * but for label-aggregation CSV.
 */
export async function readTraceOrCsv(path: string, dialect: CsvDialect): Promise<CsvReadResult> {
  if (await isRoundsFile(path, dialect)) {
    const { traces, raws, errors } = await readRoundsFile(path, dialect)
    return { traces, raws, errors, goldIgnored: 0 }
  }
  if (isCsvPath(path)) return readLabelCsvFile(path, dialect)
  return { ...(await readTraceFile(path)), goldIgnored: 0 }
}
