/**
 * The only error the store throws. `code` maps onto the API envelope (docs/architecture.md: 409/404/400/401/500);
 * `unauthorized`: the actor may not do this (another reviewer's label, a ruling without being an
 * adjudicator);
 * `details` is plain JSON so it survives IPC and HTTP unchanged.
 */
import type { JsonObject } from './json'

export type StoreErrorCode = 'conflict' | 'not_found' | 'bad_input' | 'unauthorized' | 'internal'

export class StoreError extends Error {
  readonly code: StoreErrorCode
  readonly details: JsonObject

  constructor(code: StoreErrorCode, message: string, details: JsonObject = {}) {
    super(message)
    this.name = 'StoreError'
    this.code = code
    this.details = details
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError
}
