/**
 * Label JSONL import (docs/formats.md `arbiter.labels/1`): the io reader validates each line; then each
 * label must name a task of the database and one of its candidates — and, from a console, not be
 * `random`; over a per-reviewer login (`asCaller`), name the caller. All labels are appended in one transaction
 * (the store's `importLabels`), so a failure writes none.
 */
import { LabelLineReader, streamFileLines } from '../../io'
import type { Actor, LabelImportRow } from '../../store'
import { Problems } from './problems'
import { alreadyImported, rejected } from './traces'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import type { ImportProgress } from './writer'

const LOOKUP_CHUNK = 500

export async function importLabelFile(open: StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress, bytes: number): Promise<ImportOutcome> {
  const file = req.fileName
  const reader = new LabelLineReader(file)
  // The reader does not say which line a label came from: count the non-blank lines it kept.
  const lines: number[] = []
  let lineNo = 0
  const streamed = await streamFileLines(req.path, (line, read) => {
    lineNo++
    const before = reader.result().labels.length
    reader.push(line)
    if (reader.result().labels.length > before) lines.push(lineNo)
    if (lineNo % 20_000 === 0) progress({ phase: 'validating', done: read, total: bytes, message: `line ${lineNo}` })
  })
  const base = { file, kind: 'labels' as const, sha256: streamed.sha256 }
  const { labels, errors } = reader.result()
  const problems = new Problems()
  errors.forEach((e) => problems.add(e))
  if (!problems.empty && !req.skipInvalid) return rejected(base, problems)
  const store = await open()
  const prior = await store.findImportBySha(streamed.sha256)
  if (prior !== null && prior.state === 'published') return alreadyImported(base, prior.id)
  const ids = [...new Set(labels.map((l) => l.task))]
  const candidates = new Map<string, string[]>()
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    for (const e of await store.existingTasks(ids.slice(i, i + LOOKUP_CHUNK))) if (e.state === 'published') candidates.set(e.taskId, e.candidates)
  }
  const rows: LabelImportRow[] = []
  labels.forEach((l, i) => {
    const line = lines[i]
    const cands = candidates.get(l.task)
    if (cands === undefined) {
      problems.add({ file, line, task: l.task, move: null, rule: 'unknown-task', message: `label for task ${l.task}, which is not in the database` })
    } else if (!cands.includes(l.label)) {
      problems.add({ file, line, task: l.task, move: null, rule: 'label-not-candidate', message: `label "${l.label}" is not a candidate of task ${l.task} (${cands.join(', ')})` })
    } else if (req.asCaller === true && l.reviewer !== actor.reviewer) {
      problems.add({ file, line, task: l.task, move: null, rule: 'not-your-label', message: `the label names reviewer ${l.reviewer}; signed in as ${actor.reviewer}, you may import only your own labels` })
    } else if ((req.fromConsole === true || req.asCaller === true) && l.source === 'random') {
      problems.add({ file, line, task: l.task, move: null, rule: 'random-needs-draw', message: 'a label of source random comes only from a blind draw (Calibrate) or the CLI\'s import, not a console upload' })
    } else {
      rows.push({ taskId: l.task, label: l.label, source: l.source, reviewer: l.reviewer, at: new Date(l.at).toISOString(), note: l.note ?? null })
    }
  })
  if (!problems.empty && !req.skipInvalid) return rejected(base, problems)
  progress({ phase: 'writing', done: 0, total: rows.length, message: null })
  const imp = (await store.importLabels({ fileName: file, sha256: streamed.sha256, kind: 'labels', labels: rows, fromConsole: req.fromConsole === true, asCaller: req.asCaller === true }, actor)).value
  progress({ phase: 'writing', done: rows.length, total: rows.length, message: null })
  return { ...base, status: 'imported', importId: imp.id, tasks: imp.counts.tasks, skipped: 0, moves: 0, seats: 0, labels: imp.counts.labels, errors: problems.list, errorCount: problems.count }
}
