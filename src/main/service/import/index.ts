/**
 * `runImport`: one entry for every file an import accepts (docs/formats.md `import`), used in-process
 * by the CLI and inside a worker thread by the service. A file is read and checked whole before
 * the database is written; a rejected file leaves it untouched.
 */
import { open } from 'node:fs/promises'
import { LABELS_FORMAT } from '../../../shared/trace'
import { fileSha256, fileSize, isCsvPath, isRoundsFile } from '../../io'
import type { Actor, Store } from '../../store'
import { importCsvFile } from './csv'
import { fileFault } from './file-fault'
import { importLabelFile } from './labels'
import { importRoundsFile } from './rounds'
import { Problems } from './problems'
import { importTraceFile, rejected } from './traces'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import type { ImportProgress } from './writer'

export type { ImportOutcome, ImportRequest, StoreSource } from './types'
export type { ImportProgress } from './writer'
export { formatProblem, IMPORT_RULES } from './problems'

/** A JSONL file is labels when its first record says so (format) or looks like one (label, source, no candidates). */
async function sniffJsonl(path: string): Promise<'traces' | 'labels'> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(64 * 1024)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const first = buf
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\n')
      .find((l) => l.trim() !== '')
    if (first === undefined) return 'traces'
    const v = JSON.parse(first) as Record<string, unknown>
    if (v.format === LABELS_FORMAT) return 'labels'
    return v.candidates === undefined && typeof v.label === 'string' && typeof v.source === 'string' ? 'labels' : 'traces'
  } catch {
    return 'traces' // the trace reader reports what is wrong with the first line
  } finally {
    await fh.close()
  }
}

/**
 * `auto`: the debate-rounds form when the file's header (CSV/TSV) or first object (JSONL) names
 * `round`, `seat` and `answer` and no `moves` (docs/formats.md); else label-aggregation CSV by the name;
 * else labels or traces by the first line.
 */
export async function detectKind(req: Pick<ImportRequest, 'kind' | 'path' | 'fileName' | 'dialect'>): Promise<'traces' | 'rounds' | 'csv' | 'labels'> {
  if (req.kind !== 'auto') return req.kind
  if (await isRoundsFile(req.path, req.dialect, req.fileName)) return 'rounds'
  if (isCsvPath(req.fileName)) return 'csv'
  return sniffJsonl(req.path)
}

/**
 * `store` may be a function: it is then called only once the file itself is known to be valid (or
 * `--skip-invalid` is on), so a rejected file never even creates or migrates the database.
 */
export async function runImport(store: Store | StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress = () => {}): Promise<ImportOutcome> {
  const kind = await detectKind(req)
  const fault = await fileFault(req.path, req.fileName, kind)
  if (fault !== null) {
    const problems = new Problems()
    problems.add(fault)
    return rejected({ file: req.fileName, kind, sha256: (await fileSha256(req.path)).sha256 }, problems)
  }
  const bytes = await fileSize(req.path)
  const source: StoreSource = typeof store === 'function' ? store : async () => store
  switch (kind) {
    case 'rounds':
      return importRoundsFile(source, req, actor, progress)
    case 'csv':
      return importCsvFile(source, req, actor, progress)
    case 'labels':
      return importLabelFile(source, req, actor, progress, bytes)
    case 'traces':
      return importTraceFile(source, req, actor, progress, bytes)
  }
}
