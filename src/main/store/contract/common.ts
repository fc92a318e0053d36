/**
 * What every part of the store contract shares: who writes, and what a write returns. Nothing in
 * contract/ names a backend: ids are TEXT, times are ISO-8601 UTC strings, absent values are
 * `null` (never `undefined`).
 */
import type { Shell, Topic } from '../../../shared/vocabularies'

/** Who performs a write; recorded in the audit row written by the same transaction. */
export type Actor = { reviewer: string; sessionId: string; shell: Shell }

/** What a write returned, and the topics it changed (the service turns them into `changed` events). */
export type WriteResult<T> = { value: T; topics: Topic[] }
