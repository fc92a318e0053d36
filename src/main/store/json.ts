/**
 * JSON value types for what the store keeps as JSON (candidates, raw payloads, posteriors,
 * settings, audit details). Declared as type aliases, not interfaces, so that every DTO made of
 * JSON fields is itself assignable to `JsonObject` (interfaces get no implicit index signature).
 */
export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }
