import { hash } from 'node:crypto'

/**
 * The content hash that decides "same task" (re-import skipped) vs. "changed task" (error): the
 * parsed line re-serialised, so whitespace does not count but every field, known or not, does.
 */
export function contentSha256(raw: unknown): string {
  return hash('sha256', JSON.stringify(raw), 'hex')
}
