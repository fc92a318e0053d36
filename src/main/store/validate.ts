/**
 * Backend-neutral input checks. io and the API schemas validate files and requests first; these
 * guard the invariants the store itself relies on (so a caller bug is a `bad_input`, never a
 * half-written row or a silently mangled JSON value such as NaN turned into null).
 */
import { MAX_ID_LENGTH, MAX_JSON_DEPTH } from '../../shared/limits'
import { FORCES } from '../../shared/trace'
import { BOUND_KINDS, type BoundKind } from '../../shared/contract/settings'
import type { JsonObject, JsonValue } from './contract'
import { SHELLS, StoreError, type Actor, type MoveInput, type SeatInput, type TaskInput } from './contract'

const SHA256_RE = /^[0-9a-f]{64}$/
const ISO_UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/

function bad(message: string, details: JsonObject = {}): StoreError {
  return new StoreError('bad_input', message, details)
}

export function checkId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw bad(`${what} must be a non-empty string of at most ${MAX_ID_LENGTH} characters`)
  }
  return value
}

export function checkSha256(value: unknown, what: string): string {
  if (typeof value !== 'string' || !SHA256_RE.test(value)) throw bad(`${what} must be 64 lowercase hex digits`)
  return value
}

export function checkString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw bad(`${what} must be a string`)
  return value
}

export function checkNullableString(value: unknown, what: string): string | null {
  if (value === null || value === undefined) return null
  return checkString(value, what)
}

export function checkInt(value: unknown, what: string, min = 0): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw bad(`${what} must be an integer ≥ ${min}`)
  }
  return value
}

export function checkNullableFinite(value: unknown, what: string): number | null {
  if (value === null || value === undefined) return null
  if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(`${what} must be a finite number or null`)
  return value
}

export function checkOneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw bad(`${what} must be one of ${allowed.join(', ')}`)
  }
  return value as T
}

/** Normalises an ISO-8601 UTC instant to `Date.toISOString()` form, so stored times sort as text. */
export function checkIsoUtc(value: unknown, what: string): string {
  if (typeof value !== 'string' || !ISO_UTC_RE.test(value) || Number.isNaN(Date.parse(value))) {
    throw bad(`${what} must be an ISO-8601 UTC time such as 2026-11-30T12:00:00Z`)
  }
  return new Date(value).toISOString()
}

/** Whether `value` is plain JSON, allocating nothing (the decisions of a million tasks are checked). */
export function isPlainJson(value: unknown, depth = 0): boolean {
  if (depth > MAX_JSON_DEPTH) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false
    return true
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const k in value) if (!isPlainJson((value as Record<string, unknown>)[k], depth + 1)) return false
    return true
  }
  return false
}

/** Plain JSON only: finite numbers, no undefined, no class instances. */
export function checkJson(value: unknown, what: string, depth = 0): JsonValue {
  if (depth === 0 && isPlainJson(value)) return value as JsonValue
  if (depth > MAX_JSON_DEPTH) throw bad(`${what} is nested too deeply`)
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw bad(`${what} holds a non-finite number`)
    return value
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => checkJson(v, `${what}[${i}]`, depth + 1))
    return value as JsonValue[]
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) checkJson(v, `${what}.${k}`, depth + 1)
    return value as JsonObject
  }
  throw bad(`${what} is not plain JSON`)
}

export function checkJsonObject(value: unknown, what: string): JsonObject {
  const v = checkJson(value, what)
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(`${what} must be a JSON object`)
  return v
}

export function checkActor(actor: unknown): Actor {
  const a = actor as Partial<Actor> | null
  if (a === null || typeof a !== 'object') throw bad('actor is required')
  checkId(a.reviewer, 'actor.reviewer')
  checkId(a.sessionId, 'actor.sessionId')
  checkOneOf(a.shell, SHELLS, 'actor.shell')
  return a as Actor
}

function checkMove(m: MoveInput, where: string): void {
  checkId(m.id, `${where}.id`)
  checkInt(m.round, `${where}.round`)
  checkId(m.seat, `${where}.seat`)
  checkOneOf(m.force, FORCES, `${where}.force`)
  checkNullableString(m.answer, `${where}.answer`)
  checkNullableString(m.target, `${where}.target`)
  if (m.confidence !== null) checkJson(m.confidence, `${where}.confidence`)
  checkNullableString(m.text, `${where}.text`)
  if (m.raw !== null && m.raw !== undefined) checkJsonObject(m.raw, `${where}.raw`)
}

export function checkSeat(s: SeatInput, where: string): void {
  checkId(s.id, `${where}.id`)
  checkNullableString(s.model, `${where}.model`)
}

/** Shape only; the trace rules themselves (docs/engine.md §1) belong to io. */
export function checkTask(t: TaskInput): void {
  const where = `task ${JSON.stringify(t?.id)}`
  checkId(t.id, 'task.id')
  checkNullableString(t.question, `${where}: question`)
  if (!Array.isArray(t.candidates) || t.candidates.length < 2) throw bad(`${where}: candidates must list at least 2`)
  t.candidates.forEach((c, i) => checkString(c, `${where}: candidates[${i}]`))
  if (new Set(t.candidates).size !== t.candidates.length) throw bad(`${where}: candidates must be distinct`)
  const gold = checkNullableString(t.gold, `${where}: gold`)
  if (gold !== null && !t.candidates.includes(gold)) throw bad(`${where}: gold is not a candidate`)
  checkNullableString(t.group, `${where}: group`)
  checkJsonObject(t.raw, `${where}: raw`)
  checkSha256(t.contentSha256, `${where}: contentSha256`)
  if (!Array.isArray(t.moves)) throw bad(`${where}: moves must be an array`)
  const ids = new Set<string>()
  t.moves.forEach((m, i) => {
    checkMove(m, `${where}: moves[${i}]`)
    if (ids.has(m.id)) throw bad(`${where}: duplicate move id ${JSON.stringify(m.id)}`)
    ids.add(m.id)
  })
  if (!Array.isArray(t.seats)) throw bad(`${where}: seats must be an array`)
  t.seats.forEach((s, i) => checkSeat(s, `${where}: seats[${i}]`))
}

/** A fit's bound: one of the shared kinds, or none given (stored as NULL, read as Hoeffding's). */
export function checkBound(value: unknown): BoundKind | null {
  return value === undefined || value === null ? null : checkOneOf(value, BOUND_KINDS, 'bound')
}
