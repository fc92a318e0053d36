/**
 * The review queue: the filtered, sorted task list and its facets. JSON only: ISO-8601 UTC strings,
 * `null` never `undefined`; posteriors are objects keyed by candidate.
 */
import { z } from 'zod'
import { LABEL_SOURCES, QUEUE_SORTS, TASK_STATES, type DecisionKind, type LabelSource, type TaskState } from '../vocabularies'
import { defineCalls, noArgs, query, returns } from './call'

/** The queue's filter; the exports take the same one (so an export is exactly what the queue shows). */
export const taskFilterSchema = z
  .object({
    decision: z.enum(TASK_STATES).nullable().default(null),
    group: z.string().max(512).nullable().default(null),
    seat: z.string().max(512).nullable().default(null),
    candidate: z.string().max(4096).nullable().default(null),
    labelSource: z.enum(LABEL_SOURCES).nullable().default(null),
    spotCheck: z.boolean().nullable().default(null),
    search: z.string().max(500).nullable().default(null),
    /** true: flagged tasks only; false: unflagged only; null or absent: either. */
    flagged: z.boolean().nullable().optional()
  })
  .strict()
export type TaskFilterInput = z.input<typeof taskFilterSchema>
export type TaskFilterArgs = z.output<typeof taskFilterSchema>

const DEFAULT_QUEUE_FILTER: TaskFilterArgs = { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }

export interface QueueRow {
  taskId: string
  question: string | null
  group: string | null
  candidates: string[]
  createdAt: string
  /** Pass as `expectedVersion` when resolving from the row. */
  version: number
  /** Moves in the trace. */
  moves: number
  state: TaskState | null
  decision: DecisionKind | null
  spotCheck: boolean
  /** The human label, else the acted answer or the engine's best guess. */
  answer: string | null
  posterior: Record<string, number> | null
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  /** 1 − the social state's top share at the last round. */
  disagreement: number | null
  label: { labelId: string; label: string; source: LabelSource; reviewer: string; at: string } | null
  reservedBy: { reviewer: string; sessionId: string; expiresAt: string } | null
  /** Flags on the task ("can't decide", with a reason): a flag is not a label; the task keeps its state. */
  flags: number
}

export interface QueuePageResult {
  rows: QueueRow[]
  /** Rows matching the filter (all pages). */
  total: number
  /**
   * Tasks matching the filter that another reviewer (or another window) holds: left out of this
   * queue while held, yet in the counts. `total + heldByOthers` is the count for everyone.
   */
  heldByOthers: number
  offset: number
  limit: number
  fitId: string | null
}

export interface QueueFacets {
  groups: { group: string | null; count: number }[]
  seats: string[]
}

export const queueCalls = defineCalls({
  'queue.page': query(
    z
      .object({
        filter: taskFilterSchema.default(DEFAULT_QUEUE_FILTER),
        sort: z.enum(QUEUE_SORTS).default('gap'),
        direction: z.enum(['asc', 'desc']).default('asc'),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(500).default(50)
      })
      .strict(),
    returns<QueuePageResult>(),
    ['tasks', 'labels', 'decisions', 'fits']
  ),
  'queue.facets': query(noArgs, returns<QueueFacets>(), ['tasks', 'imports'])
})
