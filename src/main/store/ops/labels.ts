/**
 * Labels: an append-only log with optimistic concurrency. Each write locks the task's row, checks
 * its `version` against what the reviewer saw and that no other session holds the task (a live
 * reservation), appends one row, bumps the version, ends the reservation and appends the audit row
 * — all in the caller's one transaction. In PostgreSQL the row lock comes before any read the write
 * relies on (READ COMMITTED, postgres/connection.ts `task`): writes on one task take turns, and each statement after
 * the lock sees the previous writer's commit, so of two reviewers who saw the same version exactly
 * one writes and the other gets a `conflict`, never a silent overwrite. (undoLabel reads its target
 * label first: a label row never changes once written, so that read cannot go stale.)
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
import { labelAction } from '../audit-row'
import { heldByOther, reservedConflict, SELECT_RESERVATION, type ReservationRow } from '../reservation-rules'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import { LABEL_COLUMNS, parseStringArray, toLabel, type LabelRow } from '../rows'
import { appendAudit } from './audit'
import { keepLabeledCounts } from './decided-counts'
import type { Dialect } from './dialect'
import { latestDecidedFitId } from './fits'
import { checkMayUndo, markDrawLabeled, requireDrawn } from './label-ownership'
import { checkBlindUndo, checkKeepsCalibrationSet } from './calibration-set'
import { laterLabel } from './history'

type TaskRow = { id: string; question: string | null; candidates: string; grp: string | null; version: number }

/** Visible tasks only: a task of an unpublished import does not exist for reviewers. `lock`: the row locked (writes). */
export function* requireTask(d: Dialect, taskId: string, lock = false): Plan<TaskRow> {
  checkId(taskId, 'taskId')
  const row = yield* rowOf<TaskRow>(
    `SELECT t.id, t.question, t.candidates, t.grp, t.version
     FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = ? AND i.state = 'published'${lock ? d.forUpdate('t') : ''}`,
    taskId
  )
  if (row === undefined) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
  return row
}

const LIVE = `label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = labels.id)`

export function* liveLabels(d: Dialect, taskId: string): Plan<LabelRecord[]> {
  yield* requireTask(d, taskId)
  const rows = yield* rowsOf<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE} ORDER BY ${d.seq}`, taskId)
  return rows.map(toLabel)
}

export function* latestLive(d: Dialect, taskId: string): Plan<LabelRecord | null> {
  const row = yield* rowOf<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE} ORDER BY ${d.seq} DESC LIMIT 1`, taskId)
  return row === undefined ? null : toLabel(row)
}

function* checkVersion(d: Dialect, task: TaskRow, expectedVersion: number): Plan<void> {
  checkInt(expectedVersion, 'expectedVersion')
  if (task.version === expectedVersion) return
  const details: VersionConflictDetails = {
    taskId: task.id,
    expectedVersion,
    currentVersion: task.version,
    latestLiveLabel: yield* latestLive(d, task.id)
  }
  throw new StoreError(
    'conflict',
    `task ${task.id} changed since it was read (version ${expectedVersion}, now ${task.version})`,
    details
  )
}

function* getLabel(labelId: string): Plan<LabelRecord | null> {
  const row = yield* rowOf<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE id = ?`, labelId)
  return row === undefined ? null : toLabel(row)
}

/** The label a new row is about to supersede must be a live label of the same task. */
function* requireSupersedable(labelId: string, taskId: string | null): Plan<LabelRecord> {
  checkId(labelId, 'labelId')
  const old = yield* getLabel(labelId)
  if (old === null || (taskId !== null && old.taskId !== taskId)) {
    throw new StoreError('not_found', `no label ${labelId}${taskId === null ? '' : ` on task ${taskId}`}`, { labelId })
  }
  if (old.label === null) {
    throw new StoreError('bad_input', `label ${labelId} is an undo marker, not a label`, { labelId })
  }
  const by = yield* rowOf<{ id: string }>('SELECT id FROM labels WHERE supersedes = ?', labelId)
  if (by !== undefined) {
    throw new StoreError('conflict', `label ${labelId} was already superseded by ${by.id}`, {
      labelId,
      supersededBy: by.id
    })
  }
  return old
}

/** The current fit's kept labeled counts, after a label write (decided-counts.ts); nothing where the dialect keeps none. */
export function* keepCurrentLabeledCounts(d: Dialect): Plan<void> {
  if (d.keepsLabeledCounts) yield* keepLabeledCounts(d, yield* latestDecidedFitId(d))
}

function* insertLabel(d: Dialect, row: Omit<LabelRecord, 'id'>): Plan<string> {
  const id = randomUUID()
  yield* run(
    `INSERT INTO labels (${LABEL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, row.taskId, row.label, row.source, row.reviewer, row.at, row.note, row.supersedes,
    d.bool(row.adjudicated), row.sessionId
  )
  yield* keepCurrentLabeledCounts(d)
  return id
}

function* bumpVersion(task: TaskRow): Plan<number> {
  // The WHERE on version makes the bump itself a compare-and-set.
  const changed = yield* run('UPDATE tasks SET version = version + 1 WHERE id = ? AND version = ?', task.id, task.version)
  if (changed !== 1) throw new StoreError('conflict', `task ${task.id} changed during the write`, { taskId: task.id })
  return task.version + 1
}

/**
 * Called inside a label write, before anything is written: another session's live hold refuses
 * it (a `conflict` naming the holder); otherwise the task is done and its hold, if any, ends.
 */
export function* claimForWrite(d: Dialect, now: string, taskId: string, actor: Actor): Plan<void> {
  const held = yield* rowOf<ReservationRow>(`${SELECT_RESERVATION}${d.forUpdate()}`, taskId)
  if (heldByOther(held, now, actor.sessionId)) throw reservedConflict(taskId, held)
  if (held !== undefined) yield* run('DELETE FROM reservations WHERE task_id = ?', taskId)
}

export function* recordLabel(d: Dialect, now: string, input: RecordLabelInput, actor: Actor): Plan<LabelWriteResult> {
  const task = yield* requireTask(d, input.taskId, true)
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
  yield* checkVersion(d, task, input.expectedVersion)
  const replaced = supersedes === null ? null : yield* requireSupersedable(supersedes, task.id)
  const fromConsole = input.requireDraw === true
  const draw = fromConsole && source === 'random' ? yield* requireDrawn(d, now, task.id, actor, supersedes) : null
  if (fromConsole && input.adjudicated !== true) yield* checkKeepsCalibrationSet(task.id, reviewer, source, replaced, draw !== null)
  yield* claimForWrite(d, now, task.id, actor)

  const adjudicated = input.adjudicated === true
  const labelId = yield* insertLabel(d, {
    taskId: task.id, label, source, reviewer, at, note, supersedes, adjudicated, sessionId: actor.sessionId
  })
  if (draw !== null) yield* markDrawLabeled(draw, labelId)
  const version = yield* bumpVersion(task)
  yield* appendAudit(now, actor, labelAction(adjudicated), task.id, {
    labelId, label, source, reviewer, supersedes, adjudicated, version
  })
  return { labelId, taskId: task.id, version }
}

/**
 * Undo takes back the task's latest word only: once the task has moved on since
 * the label — another reviewer labeled it, a ruling settled it — undoing it would silently change
 * what they decided on, so it is a `conflict` naming the later row.
 */
function* requireNotMovedOn(d: Dialect, target: LabelRecord): Plan<void> {
  const later = yield* laterLabel(d, target.id)
  if (later === null) return
  const what = later.adjudicated ? `an adjudication by ${later.reviewer}` : later.label === null ? `an undo by ${later.reviewer}` : `a label by ${later.reviewer}`
  throw new StoreError('conflict', `task ${target.taskId} moved on since label ${target.id}: ${what} came after it`, {
    taskId: target.taskId,
    labelId: target.id,
    reason: 'moved_on',
    movedOn: later
  })
}

/** Appends an undo marker (`label: null`, `supersedes: labelId`); the original row stays. */
export function* undoLabel(d: Dialect, now: string, input: UndoLabelInput, actor: Actor): Plan<LabelWriteResult> {
  checkId(input.labelId, 'labelId')
  const target = yield* getLabel(input.labelId)
  if (target === null) throw new StoreError('not_found', `no label ${input.labelId}`, { labelId: input.labelId })
  checkMayUndo(target, actor, input.mayUndoRulings === true)
  if (input.keepBlind === true) checkBlindUndo(target)
  const task = yield* requireTask(d, target.taskId, true)
  yield* checkVersion(d, task, input.expectedVersion)
  yield* requireSupersedable(target.id, task.id)
  yield* requireNotMovedOn(d, target)
  yield* claimForWrite(d, now, task.id, actor)
  const labelId = yield* insertLabel(d, {
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
  const version = yield* bumpVersion(task)
  yield* appendAudit(now, actor, 'label.undo', task.id, { labelId, undone: target.id, version })
  return { labelId, taskId: task.id, version }
}

export function* getTaskSummary(d: Dialect, taskId: string): Plan<TaskSummary> {
  const task = yield* requireTask(d, taskId)
  return {
    id: task.id,
    question: task.question,
    candidates: parseStringArray(task.candidates),
    group: task.grp,
    version: task.version,
    liveLabels: yield* liveLabels(d, task.id)
  }
}
