/**
 * Labels written in bulk: a label file (`arbiter.labels/1`) and gold recorded as labels
 * (`--gold-as`, ENGINE.md §10). Both append to the same log as a reviewer's resolve and bump each
 * task's version, so a reviewer who had the task open gets a conflict, never a silent overwrite.
 */
import { randomUUID } from 'node:crypto'
import { checkImportedLabel, checkLabelsImport, type ImportedLabel } from '../label-import-check'
import { StoreError, type Actor, type ImportLabelsInput, type ImportRecord, type LabelSource } from '../contract'
import { checkId } from '../validate'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { EMPTY_IMPORT_COUNTS, IMPORT_COLUMNS, toImport, type ImportRow } from '../rows'

const INSERT_LABEL = `INSERT INTO labels (id, task_id, label, source, reviewer, at, note, supersedes, adjudicated, session_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, NULL, false, ?)`

/** Gold of every task the (staged) import wrote, as labels; returns how many. */
export async function recordGoldLabels(q: PgSql, now: string, importId: string, goldAs: { source: LabelSource; reviewer: string }, actor: Actor): Promise<number> {
  const rows = await q.all<{ id: string; gold: string }>('SELECT id, gold FROM tasks WHERE import_id = ? AND gold IS NOT NULL ORDER BY seq', importId)
  for (const r of rows) await q.run(INSERT_LABEL, randomUUID(), r.id, r.gold, goldAs.source, goldAs.reviewer, now, null, actor.sessionId)
  await q.run('UPDATE tasks SET version = version + 1 WHERE import_id = ? AND gold IS NOT NULL', importId)
  return rows.length
}

type TaskCheck = { candidates: string }

export async function importLabels(q: PgSql, now: string, input: ImportLabelsInput, actor: Actor): Promise<ImportRecord> {
  checkLabelsImport(input)
  const rows: ImportedLabel[] = []
  for (const [i, l] of input.labels.entries()) {
    const taskId = checkId(l.taskId, `labels[${i}].taskId`)
    const task = await q.get<TaskCheck>(
      `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = ?`,
      taskId
    )
    rows.push(checkImportedLabel(l, i, taskId, task))
  }
  const id = randomUUID()
  const tasks = new Set(rows.map((r) => r.taskId))
  const counts = { ...EMPTY_IMPORT_COUNTS, tasks: tasks.size, labels: rows.length }
  await q.run(
    `INSERT INTO imports (id, file_name, sha256, kind, state, created_at, updated_at, published_at, counts, created_by, session_id, shell)
     VALUES (?, ?, ?, 'labels', 'published', ?, ?, ?, ?, ?, ?, ?)`,
    id, input.fileName, input.sha256, now, now, now, JSON.stringify(counts), actor.reviewer, actor.sessionId, actor.shell
  )
  for (const r of rows) await q.run(INSERT_LABEL, randomUUID(), r.taskId, r.label, r.source, r.reviewer, r.at, r.note, actor.sessionId)
  for (const t of tasks) await q.run('UPDATE tasks SET version = version + 1 WHERE id = ?', t)
  await appendAudit(q, now, actor, 'labels.import', id, { fileName: input.fileName, sha256: input.sha256, labels: rows.length, tasks: tasks.size })
  const row = await q.get<ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = ?`, id)
  if (row === undefined) throw new StoreError('internal', `import ${id} vanished after insert`)
  return toImport(row)
}
