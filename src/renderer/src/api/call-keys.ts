/**
 * The console's query keys and live updates, both derived from the contract. A cached answer's key
 * starts with the call that gave it (`callKey('task.detail', id, blind)`), so a change event finds
 * the answers it made stale by their call alone: those of every query whose `reads` names one of
 * the event's topics.
 */
import { API_CALLS } from '@shared/api'
import { API_METHODS, type ApiMethod } from '@shared/api-methods'
import type { ApiEvent, Topic } from '@shared/events'

/** A query key: the call, then whatever tells its cached answers apart (its arguments, a page). */
export function callKey<M extends ApiMethod>(method: M, ...parts: unknown[]): [M, ...unknown[]] {
  return [method, ...parts]
}

/** What an event changed. A landed fit moves decisions as well as fits, without a `changed` of its own. */
export function eventTopics(event: ApiEvent): Topic[] {
  return event.type === 'changed' ? event.topics : event.type === 'fit-landed' ? ['fits', 'decisions'] : []
}

/** The queries whose answers depend on any of these topics. */
export function queriesReading(topics: readonly Topic[]): Set<ApiMethod> {
  return new Set(API_METHODS.filter((m) => API_CALLS[m].reads.some((t) => topics.includes(t))))
}

/** Whether a cached query's key names one of these calls. */
export function keyNamesOneOf(key: readonly unknown[], methods: ReadonlySet<ApiMethod>): boolean {
  return (methods as ReadonlySet<unknown>).has(key[0])
}
