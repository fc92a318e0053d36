import { MAX_ID_LENGTH } from './limits'
import type { ReadError, RuleId } from './read-error'

/** A JSON object (not an array, not null): the only shape a JSONL record line may have. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function kindOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return `a ${typeof v}`
}

/** Collects the errors of one physical line, with its file, line and task filled in once. */
export class LineErrors {
  readonly list: ReadError[] = []
  task: string | null = null

  constructor(
    private readonly file: string,
    private readonly line: number
  ) {}

  add(rule: RuleId, message: string, move: string | null = null): void {
    this.list.push({ file: this.file, line: this.line, task: this.task, move, rule, message })
  }

  get empty(): boolean {
    return this.list.length === 0
  }
}

/**
 * Checks `obj[key]` is a string when present; reports missing-field if required and absent, or
 * wrong-type. Returns the string, or undefined when absent or wrong.
 */
export function stringField(
  obj: Record<string, unknown>,
  key: string,
  required: boolean,
  errs: LineErrors,
  where: string,
  move: string | null = null
): string | undefined {
  const v = obj[key]
  if (v === undefined) {
    if (required) errs.add('missing-field', `${where} has no "${key}"`, move)
    return undefined
  }
  if (typeof v !== 'string') {
    errs.add('wrong-type', `${where} "${key}" must be a string, got ${kindOf(v)}`, move)
    return undefined
  }
  return v
}

/**
 * A string field that is an id (task, move, seat, reviewer): besides stringField's checks, it must be
 * non-empty and at most MAX_ID_LENGTH characters, as the store requires of every id — an id the
 * reader let through would otherwise fail the whole import at write time, without a line number.
 */
export function idField(
  obj: Record<string, unknown>,
  key: string,
  required: boolean,
  errs: LineErrors,
  where: string,
  move: string | null = null
): string | undefined {
  const v = stringField(obj, key, required, errs, where, move)
  if (v === undefined) return undefined
  const fault = idFault(v)
  if (fault === null) return v
  errs.add('wrong-type', `${where} "${key}" must be a non-empty string of at most ${MAX_ID_LENGTH} characters, got ${fault}`, move)
  return undefined
}

/** Why a string cannot be an id, or null. */
export function idFault(v: string): string | null {
  if (v === '') return 'an empty string'
  if (v.length > MAX_ID_LENGTH) return `${v.length} characters`
  return null
}
