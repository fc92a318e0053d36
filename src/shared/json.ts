/**
 * JSON value types, shared by the trace types (a move's `confidence` may be any JSON value,
 * docs/engine.md §1) and the store (store/json.ts re-exports them). Type aliases, not interfaces, so a
 * DTO made of JSON fields is itself assignable to `JsonObject`.
 */
export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }
