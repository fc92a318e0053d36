/**
 * JSON value types for what the store keeps as JSON (candidates, raw payloads, posteriors,
 * settings, audit details, a move's confidence). They live in shared/json.ts, which the trace
 * types use too.
 */
export type { JsonObject, JsonPrimitive, JsonValue } from '../../../shared/json'
