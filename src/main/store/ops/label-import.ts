/**
 * Labels written in bulk: a label file (`arbiter.labels/1`) and gold recorded as labels
 * (`--gold-as`, docs/engine.md §10). Both append to the same log as a reviewer's resolve and bump each
 * task's version, so a reviewer who had the task open gets a conflict, never a silent overwrite.
 * A console's file carries no `random` label, and one imported over a per-reviewer login
 * (`asCaller`) holds only the caller's own labels, each written as a resolve would.
 */
import { randomUUID } from 'node:crypto'
import { checkConsoleLabel, checkImportedLabel, checkLabelsImport, type ImportedLabel } from '../label-import-check'
import { StoreError, type Actor, type ImportLabelsInput, type ImportRecord, type LabelSource } from '../contract'
import { checkId } from '../validate'
import { appendAudit } from './audit'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import { EMPTY_IMPORT_COUNTS, IMPORT_COLUMNS, LABEL_COLUMNS, toImport, toLabel, type ImportRow, type LabelRow } from '../rows'
import { checkKeepsCalibrationSet } from './calibration-set'
import type { Dialect } from './dialect'
import { claimForWrite, keepCurrentLabeledCounts } from './labels'

const INSERT_LABEL = `INSERT INTO labels (id, task_id, label, source, reviewer, at, note, supersedes, adjudicated, session_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

/** Gold of every task the (staged) import wrote, as labels; returns how many. */
export function* recordGoldLabels(d: Dialect, now: string, importId: string, goldAs: { source: LabelSource; reviewer: string }, actor: Actor): Plan<number> {
  const rows = yield* rowsOf<{ id: string; gold: string }>(`SELECT id, gold FROM tasks WHERE import_id = ? AND gold IS NOT NULL ORDER BY ${d.seq}`, importId)
  for (const r of rows) yield* run(INSERT_LABEL, randomUUID(), r.id, r.gold, goldAs.source, goldAs.reviewer, now, null, null, d.bool(false), actor.sessionId)
  yield* run('UPDATE tasks SET version = version + 1 WHERE import_id = ? AND gold IS NOT NULL', importId)
  yield* keepCurrentLabeledCounts(d)
  return rows.length
}

type TaskCheck = { candidates: string }

/**
 * One label of an import as the caller's own (ImportLabelsInput.asCaller), as a resolve writes it:
 * the task's row locked first, another session's live hold refuses it (and the caller's own ends),
 * it supersedes the caller's live vote on the task, and it is audited on its own.
 */
function* appendCallersLabel(d: Dialect, now: string, importId: string, r: ImportedLabel, actor: Actor): Plan<void> {
  yield* rowOf(`SELECT t.id FROM tasks t WHERE t.id = ?${d.forUpdate('t')}`, r.taskId)
  yield* claimForWrite(d, now, r.taskId, actor)
  const own = yield* rowOf<LabelRow>(
    `SELECT ${LABEL_COLUMNS} FROM labels l WHERE l.task_id = ? AND l.reviewer = ? AND NOT l.adjudicated AND ${LIVE_LABEL('l')} ORDER BY l.${d.seq} DESC LIMIT 1`,
    r.taskId, actor.reviewer
  )
  // A file is no draw: it neither replaces a blind label nor joins another reviewer's.
  yield* checkKeepsCalibrationSet(r.taskId, actor.reviewer, r.source, own === undefined ? null : toLabel(own), false)
  const labelId = randomUUID()
  const supersedes = own?.id ?? null
  yield* run(INSERT_LABEL, labelId, r.taskId, r.label, r.source, r.reviewer, r.at, r.note, supersedes, d.bool(false), actor.sessionId)
  yield* appendAudit(now, actor, 'label.import', r.taskId, { labelId, label: r.label, source: r.source, reviewer: r.reviewer, supersedes, importId })
}

export function* importLabels(d: Dialect, now: string, input: ImportLabelsInput, actor: Actor): Plan<ImportRecord> {
  checkLabelsImport(input)
  const rows: ImportedLabel[] = []
  for (const [i, l] of input.labels.entries()) {
    const taskId = checkId(l.taskId, `labels[${i}].taskId`)
    const task = yield* rowOf<TaskCheck>(
      `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = ?`,
      taskId
    )
    const row = checkImportedLabel(l, i, taskId, task)
    if (input.fromConsole === true || input.asCaller === true) checkConsoleLabel(row, i, actor, input.asCaller === true)
    rows.push(row)
  }
  const id = randomUUID()
  const tasks = new Set(rows.map((r) => r.taskId))
  const counts = { ...EMPTY_IMPORT_COUNTS, tasks: tasks.size, labels: rows.length }
  yield* run(
    `INSERT INTO imports (id, file_name, sha256, kind, state, created_at, updated_at, published_at, counts, created_by, session_id, shell)
     VALUES (?, ?, ?, 'labels', 'published', ?, ?, ?, ?, ?, ?, ?)`,
    id, input.fileName, input.sha256, now, now, now, JSON.stringify(counts), actor.reviewer, actor.sessionId, actor.shell
  )
  if (input.asCaller === true) for (const r of rows) yield* appendCallersLabel(d, now, id, r, actor)
  else for (const r of rows) yield* run(INSERT_LABEL, randomUUID(), r.taskId, r.label, r.source, r.reviewer, r.at, r.note, null, d.bool(false), actor.sessionId)
  for (const t of tasks) yield* run('UPDATE tasks SET version = version + 1 WHERE id = ?', t)
  yield* keepCurrentLabeledCounts(d)
  yield* appendAudit(now, actor, 'labels.import', id, { fileName: input.fileName, sha256: input.sha256, labels: rows.length, tasks: tasks.size })
  const row = yield* rowOf<ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = ?`, id)
  if (row === undefined) throw new StoreError('internal', `import ${id} vanished after insert`)
  return toImport(row)
}
