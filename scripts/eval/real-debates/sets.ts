import { join } from 'node:path'
import type { Trace } from '@shared/trace'
import { formatReadError, readTraceFile } from '../../../src/main/io'

/** The five real debates of ../shared/data/real-debates, each file on its own (runs are never pooled). */
export const DEBATE_FILES: readonly { name: string; file: string }[] = [
  { name: 'cipher-phi4-gsm8k', file: 'cipher-phi4-gsm8k/traces.jsonl' },
  { name: 'llm-agora', file: 'llm-agora/traces.jsonl' },
  { name: 'nilgeoutim-gsm', file: 'nilgeoutim-gsm/traces.jsonl' },
  { name: 'nilgeoutim-gsm run 2', file: 'nilgeoutim-gsm/traces_run2.jsonl' },
  { name: 'tt6746690-gsm', file: 'tt6746690-gsm/traces.jsonl' }
]

/** A debate file read through the project's own reader, exactly as `--traces FILE` reads it. */
export async function readDebate(dataDir: string, file: string): Promise<Trace[]> {
  const path = join(dataDir, 'real-debates', file)
  const res = await readTraceFile(path)
  if (res.errors.length > 0) throw new Error(`${path}: ${res.errors.length} read errors, first: ${formatReadError(res.errors[0])}`)
  return res.traces
}
