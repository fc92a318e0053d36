/**
 * Faults of a whole file found from its first line, before any reader runs: a file with nothing in
 * it, and a JSON file that is not JSON Lines (one array, or one object spread over many lines), which
 * every line-by-line reader would otherwise answer with one error per line.
 */
import type { ImportProblem } from '../../../shared/api'
import { fileStart, isCsvPath } from '../../io'

export async function fileFault(path: string, fileName: string, kind: 'traces' | 'rounds' | 'csv' | 'labels'): Promise<ImportProblem | null> {
  const start = await fileStart(path)
  const at = { file: fileName, task: null, move: null }
  if (start === null) return { ...at, line: 1, rule: 'empty-file', message: 'the file is empty: it holds no task, row or label; nothing was written' }
  if (kind === 'csv' || isCsvPath(fileName)) return null
  const first = start.text.trim()
  const jsonl = 'Arbiter reads JSON Lines: one object per line, no enclosing [ ] and no line breaks inside an object (e.g. jq -c'
  if (first.startsWith('['))
    return { ...at, line: start.line, rule: 'not-jsonl', message: `the file is one JSON array; use JSONL. ${jsonl} '.[]' FILE.json > FILE.jsonl)` }
  if (first === '{')
    return { ...at, line: start.line, rule: 'not-jsonl', message: `the file is JSON written over many lines; use JSONL. ${jsonl} . FILE.json > FILE.jsonl)` }
  return null
}
