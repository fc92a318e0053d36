/**
 * Labels: an append-only log with optimistic concurrency. Each write checks the task's
 * `version` against what the reviewer saw and that no other session holds the task (a live
 * reservation), appends one row, bumps the version, ends the task's reservation and appends the
 * audit row — all in the caller's one transaction.
 */
import { randomUUID } from 'node:crypto'
import {
  LABEL_SOURCES,
  StoreError,
  type Actor,
  type LabelRecord,
  type LabelWriteResult,
  type RecordLabelInput,
  type TaskSummary,
  type UndoLabelInput,
  type VersionConflictDetails
} from '../contract'
import { checkId, checkInt, checkIsoUtc, checkNullableString, checkOneOf, checkString } from '../validate'
import { appendAudit } from './audit'
import { labelAction } from '../audit-row'
import type { Sql } from './connection'
import { heldByOther, reservedConflict, SELECT_RESERVATION, type ReservationRow } from '../reservation-rules'
import { LABEL_COLUMNS, parseStringArray, toLabel, type LabelRow } from '../rows'

type TaskRow = { id: string; question: string | null; candidates: string; grp: string | null; version: number }

/** Visible tasks only: a task of an unpublished import does not exist for reviewers. */
export function requireTask(q: Sql, taskId: string): TaskRow {
  checkId(taskId, 'taskId')
  const row = q.get<TaskRow>(
    `SELECT t.id, t.question, t.candidates, t.grp, t.version
     FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = ? AND i.state = 'published'`,
    taskId
  )
  if (row === undefined) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
  return row
}

const LIVE = `label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = labels.id)`

export function liveLabels(q: Sql, taskId: string): LabelRecord[] {
  requireTask(q, taskId)
  return q
    .all<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE} ORDER BY rowid`, taskId)
    .map(toLabel)
}

function latestLive(q: Sql, taskId: string): LabelRecord | null {
  const row = q.get<LabelRow>(
    `SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE} ORDER BY rowid DESC LIMIT 1`,
    taskId
  )
  return row === undefined ? null : toLabel(row)
}

function checkVersion(q: Sql, task: TaskRow, expectedVersion: number): void {
  checkInt(expectedVersion, 'expectedVersion')
  if (task.version === expectedVersion) return
  const details: VersionConflictDetails = {
    taskId: task.id,
    expectedVersion,
    currentVersion: task.version,
    latestLiveLabel: latestLive(q, task.id)
  }
  throw new StoreError(
    'conflict',
    `task ${task.id} changed since it was read (version ${expectedVersion}, now ${task.version})`,
    details
  )
}

function getLabel(q: Sql, labelId: string): LabelRecord | null {
  const row = q.get<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE id = ?`, labelId)
  return row === undefined ? null : toLabel(row)
}

/** The label a new row is about to supersede must be a live label of the same task. */
function requireSupersedable(q: Sql, labelId: string, taskId: string | null): LabelRecord {
  checkId(labelId, 'labelId')
  const old = getLabel(q, labelId)
  if (old === null || (taskId !== null && old.taskId !== taskId)) {
    throw new StoreError('not_found', `no label ${labelId}${taskId === null ? '' : ` on task ${taskId}`}`, { labelId })
  }
  if (old.label === null) {
    throw new StoreError('bad_input', `label ${labelId} is an undo marker, not a label`, { labelId })
  }
  const by = q.get<{ id: string }>('SELECT id FROM labels WHERE supersedes = ?', labelId)
  if (by !== undefined) {
    throw new StoreError('conflict', `label ${labelId} was already superseded by ${by.id}`, {
      labelId,
      supersededBy: by.id
    })
  }
  return old
}

function insertLabel(q: Sql, row: Omit<LabelRecord, 'id'>): string {
  const id = randomUUID()
  q.run(
    `INSERT INTO labels (${LABEL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, row.taskId, row.label, row.source, row.reviewer, row.at, row.note, row.supersedes,
    row.adjudicated ? 1 : 0, row.sessionId
  )
  return id
}

function bumpVersion(q: Sql, task: TaskRow): number {
  // The WHERE on version makes the bump itself a compare-and-set.
  const changed = q.run('UPDATE tasks SET version = version + 1 WHERE id = ? AND version = ?', task.id, task.version)
  if (changed !== 1) throw new StoreError('conflict', `task ${task.id} changed during the write`, { taskId: task.id })
  return task.version + 1
}

/**
 * Called inside a label write, before anything is written: another session's live hold refuses
 * it (a `conflict` naming the holder); otherwise the task is done and its hold, if any, ends.
 */
export function claimForWrite(q: Sql, now: string, taskId: string, actor: Actor): void {
  const held = q.get<ReservationRow>(SELECT_RESERVATION, taskId)
  if (heldByOther(held, now, actor.sessionId)) throw reservedConflict(taskId, held)
  if (held !== undefined) q.run('DELETE FROM reservations WHERE task_id = ?', taskId)
}

export function recordLabel(q: Sql, now: string, input: RecordLabelInput, actor: Actor): LabelWriteResult {
  const task = requireTask(q, input.taskId)
  const label = checkString(input.label, 'label')
  const candidates = parseStringArray(task.candidates)
  if (!candidates.includes(label)) {
    throw new StoreError('bad_input', `"${label}" is not a candidate of task ${task.id}`, {
      taskId: task.id,
      label,
      candidates
    })
  }
  const source = checkOneOf(input.source, LABEL_SOURCES, 'source')
  const reviewer = checkId(input.reviewer, 'reviewer')
  const note = checkNullableString(input.note, 'note')
  const at = input.at === null || input.at === undefined ? now : checkIsoUtc(input.at, 'at')
  const supersedes = input.supersedes === null || input.supersedes === undefined ? null : input.supersedes
  checkVersion(q, task, input.expectedVersion)
  if (supersedes !== null) requireSupersedable(q, supersedes, task.id)
  claimForWrite(q, now, task.id, actor)

  const adjudicated = input.adjudicated === true
  const labelId = insertLabel(q, {
    taskId: task.id, label, source, reviewer, at, note, supersedes, adjudicated, sessionId: actor.sessionId
  })
  const version = bumpVersion(q, task)
  appendAudit(q, now, actor, labelAction(adjudicated), task.id, {
    labelId, label, source, reviewer, supersedes, adjudicated, version
  })
  return { labelId, taskId: task.id, version }
}

/** Appends an undo marker (`label: null`, `supersedes: labelId`); the original row stays. */
export function undoLabel(q: Sql, now: string, input: UndoLabelInput, actor: Actor): LabelWriteResult {
  checkId(input.labelId, 'labelId')
  const target = getLabel(q, input.labelId)
  if (target === null) throw new StoreError('not_found', `no label ${input.labelId}`, { labelId: input.labelId })
  const task = requireTask(q, target.taskId)
  checkVersion(q, task, input.expectedVersion)
  requireSupersedable(q, target.id, task.id)
  claimForWrite(q, now, task.id, actor)
  const labelId = insertLabel(q, {
    taskId: task.id,
    label: null,
    source: target.source,
    reviewer: actor.reviewer,
    at: now,
    note: null,
    supersedes: target.id,
    adjudicated: false,
    sessionId: actor.sessionId
  })
  const version = bumpVersion(q, task)
  appendAudit(q, now, actor, 'label.undo', task.id, { labelId, undone: target.id, version })
  return { labelId, taskId: task.id, version }
}

export function getTaskSummary(q: Sql, taskId: string): TaskSummary {
  const task = requireTask(q, taskId)
  return {
    id: task.id,
    question: task.question,
    candidates: parseStringArray(task.candidates),
    group: task.grp,
    version: task.version,
    liveLabels: liveLabels(q, task.id)
  }
}
