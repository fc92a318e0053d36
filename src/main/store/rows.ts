/**
 * Row → DTO mapping, shared by both backends. DTOs use camelCase, booleans for flags, parsed JSON,
 * and `null` for SQL NULL. JSON columns arrive as their text in both (see postgres/connection.ts);
 * a flag column is 0/1 in SQLite and a boolean in PostgreSQL.
 */
import type { JsonObject, JsonValue } from './contract'
import type {
  FitRecord,
  ImportCounts,
  ImportRecordKind,
  ImportRecord,
  ImportState,
  LabelRecord,
  LabelSource
} from './contract'

export function parseJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue
}

export function parseJsonObject(text: string): JsonObject {
  const v = parseJson(text)
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}
}

export function parseNullableJsonObject(text: string | null): JsonObject | null {
  return text === null ? null : parseJsonObject(text)
}

export function parseStringArray(text: string): string[] {
  const v = parseJson(text)
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
}

/** A boolean column as a backend returns it: 0/1 from SQLite, a boolean from PostgreSQL. */
export type SqlFlag = number | boolean

/** true for SQLite's 1 and PostgreSQL's true; false for 0, false and NULL. */
export function isSet(flag: SqlFlag | null): boolean {
  return flag === true || flag === 1
}

export type LabelRow = {
  id: string
  task_id: string
  label: string | null
  source: LabelSource
  reviewer: string
  at: string
  note: string | null
  supersedes: string | null
  adjudicated: SqlFlag
  session_id: string
}

export const LABEL_COLUMNS = 'id, task_id, label, source, reviewer, at, note, supersedes, adjudicated, session_id'

export function toLabel(r: LabelRow): LabelRecord {
  return {
    id: r.id,
    taskId: r.task_id,
    label: r.label,
    source: r.source,
    reviewer: r.reviewer,
    at: r.at,
    note: r.note,
    supersedes: r.supersedes,
    adjudicated: isSet(r.adjudicated),
    sessionId: r.session_id
  }
}

export type ImportRow = {
  id: string
  file_name: string
  sha256: string
  kind: ImportRecordKind
  state: ImportState
  created_at: string
  published_at: string | null
  counts: string
  created_by: string
}

export const IMPORT_COLUMNS = 'id, file_name, sha256, kind, state, created_at, published_at, counts, created_by'

export const EMPTY_IMPORT_COUNTS: ImportCounts = { tasks: 0, skipped: 0, moves: 0, seats: 0, labels: 0 }

export function toImport(r: ImportRow): ImportRecord {
  const c = parseJsonObject(r.counts)
  const num = (k: keyof ImportCounts): number => (typeof c[k] === 'number' ? (c[k] as number) : 0)
  return {
    id: r.id,
    fileName: r.file_name,
    sha256: r.sha256,
    kind: r.kind,
    state: r.state,
    createdAt: r.created_at,
    publishedAt: r.published_at,
    counts: { tasks: num('tasks'), skipped: num('skipped'), moves: num('moves'), seats: num('seats'), labels: num('labels') },
    createdBy: r.created_by
  }
}

export type FitRow = {
  id: string
  created_at: string
  method: string
  hyperparameters: string
  reliabilities: string
  certificate: string | null
  metrics: string | null
  parent_fit_id: string | null
  decided_at: string | null
  decision_count: number
  deferred_count: number | null
  spot_count: number | null
  bound: string | null
}

export const FIT_COLUMNS =
  'id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, decided_at, decision_count, deferred_count, spot_count, bound'

export function toFit(r: FitRow): FitRecord {
  return {
    id: r.id,
    createdAt: r.created_at,
    method: r.method,
    hyperparameters: parseJsonObject(r.hyperparameters),
    reliabilities: parseJsonObject(r.reliabilities),
    certificate: parseNullableJsonObject(r.certificate),
    metrics: parseNullableJsonObject(r.metrics),
    parentFitId: r.parent_fit_id,
    decidedAt: r.decided_at,
    decisionCount: r.decision_count,
    deferredCount: r.deferred_count,
    spotCount: r.spot_count,
    // Fits made before the bound was stored all ran Hoeffding's (the only bound there was).
    bound: r.bound === 'binomial' ? 'binomial' : 'hoeffding'
  }
}
