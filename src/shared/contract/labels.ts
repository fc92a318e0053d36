/** Labels: recording one, undoing one, and the recent and own-history lists. */
import { z } from 'zod'
import { LABEL_SOURCES, type LabelSource } from '../vocabularies'
import { command, defineCalls, id, query, returns } from './call'

export interface LabelView {
  id: string
  taskId: string
  /** null: an undo marker (it supersedes the label it undid). */
  label: string | null
  source: LabelSource
  reviewer: string
  at: string
  note: string | null
  supersedes: string | null
  adjudicated: boolean
}

export interface ResolveResult {
  labelId: string
  taskId: string
  version: number
  /** A background refit is scheduled (debounced); `fit-landed` follows. */
  refitScheduled: boolean
  /**
   * The source stored: a `random` label from a reviewer who had labeled the task before (and so
   * has seen its verdict) is stored as `escalation` — it leaves the calibration set.
   */
  source: LabelSource
}

/** An undo: the marker written, its task's new version. */
export type UndoResult = Omit<ResolveResult, 'source'>

export type RecentLabel = LabelView & { question: string | null; live: boolean }

/** One of the caller's own labels (the history panel): its task's version now, and whether the task has moved on since. */
export type HistoryLabel = RecentLabel & {
  taskVersion: number
  /** A later row of the task that is not this label's own undo or replacement (another reviewer's label, a ruling); null: none. */
  movedOn: { id: string; reviewer: string; label: string | null; adjudicated: boolean; at: string } | null
}

/** What `labels.undoLast` did: the label it undid, or nothing (no live label of that source). */
export type UndoLastResult = { undone: null } | { undone: HistoryLabel; labelId: string; taskId: string; version: number; refitScheduled: boolean }

export const labelCalls = defineCalls({
  'labels.resolve': command(
    z
      .object({
        taskId: id,
        label: z.string().max(4096),
        expectedVersion: z.number().int().min(0),
        source: z.enum(LABEL_SOURCES).default('escalation'),
        note: z.string().max(4000).nullable().default(null)
      })
      .strict(),
    returns<ResolveResult>()
  ),
  'labels.undo': command(z.object({ labelId: id, expectedVersion: z.number().int().min(0) }).strict(), returns<UndoResult>()),
  'labels.recent': query(z.object({ limit: z.number().int().min(1).max(500).default(20) }).strict(), returns<RecentLabel[]>(), ['labels']),
  /** The caller's own labels, newest first (the history panel); `source` narrows them to one screen's. */
  'labels.history': query(
    z.object({ source: z.enum(LABEL_SOURCES).nullable().default(null), limit: z.number().int().min(1).max(100).default(20) }).strict(),
    returns<HistoryLabel[]>(),
    ['labels']
  ),
  /** Undoes the caller's latest live label of this source (Review: escalation, Calibrate: random). */
  'labels.undoLast': command(z.object({ source: z.enum(LABEL_SOURCES) }).strict(), returns<UndoLastResult>())
})
