/**
 * The store contract: the `Store` interface by domain, its types and its one error. Imports nothing
 * else from the store (a backend, an operation or a helper may import the contract, never the
 * reverse), so the contract sits at the bottom of the store's import graph.
 */
export {
  DECISION_KINDS, IMPORT_STATES, LABEL_SOURCES, QUEUE_SORTS, SHELLS, TASK_STATES, TOPICS,
  type DecisionKind, type ImportState, type LabelSource, type QueueSort, type Shell, type TaskState, type Topic
} from '../../../shared/vocabularies'
export type { JsonObject, JsonPrimitive, JsonValue } from './json'
export { StoreError, isStoreError, type StoreErrorCode } from './store-error'
export type * from './common'
export type * from './status'
export type * from './tasks'
export type * from './labels'
export { IMPORT_RECORD_KINDS } from './imports'
export type * from './imports'
export type * from './tallies'
export type * from './fits'
export type * from './queue'
export type * from './audit'
export type * from './team'
export type * from './flags'
export type * from './store'
