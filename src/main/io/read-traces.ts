import { isCsvPath, type CsvDialect } from './csv-dialect'
import { readLabelCsvFile, type CsvReadResult } from './csv-reader'
import { readTraceFile } from './trace-reader'

/**
 * One entry point for `--traces` / `--calibration` / `import`: a `.csv`, `.tsv` or `.txt` file is
 * label-aggregation CSV read with `dialect` (FORMATS.md), anything else trace JSONL (the dialect,
 * gold file included, does not apply to it). `goldIgnored` is 0 for JSONL.
 */
export async function readTraceOrCsv(path: string, dialect: CsvDialect): Promise<CsvReadResult> {
  if (isCsvPath(path)) return readLabelCsvFile(path, dialect)
  return { ...(await readTraceFile(path)), goldIgnored: 0 }
}
