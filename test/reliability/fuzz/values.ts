/**
 * Replacement values for "type change" mutations: every JSON type, plus values that are valid JSON
 * but sit on a limit of what Arbiter stores (ids of 513 characters, unsafe integers, numbers that
 * overflow, unpaired surrogates, times whose UTC year has 5 digits, nesting at and past 64 levels).
 * Raw JSON text that JSON.stringify cannot produce (`1e400`) travels as a marked string and is
 * spliced in after serialising.
 */
const RAW = '\u0000RAW:'

export const raw = (text: string): string => `${RAW}${text}`

/** JSON.stringify, then the marked strings replaced by their raw JSON text. */
export function stringifyWithRaw(v: unknown): string {
  return JSON.stringify(v).replace(/"\\u0000RAW:((?:[^"\\]|\\.)*)"/g, (_m, text: string) => JSON.parse(`"${text}"`) as string)
}

const nest = (n: number): unknown => {
  let v: unknown = []
  for (let i = 1; i < n; i++) v = [v]
  return v
}

export const REPLACEMENTS: readonly unknown[] = [
  null, true, false, 0, -1, 1.5, 2 ** 53 + 2, raw('1e400'), raw('-1e400'), raw('1.0'), raw('1e2'),
  '', ' ', 'x'.repeat(512), 'x'.repeat(513), '\ud800', 'a\udc00b', '\u0000', '\u2028', 'é', '😀',
  'true', 'false', 'propose', 'vote', 'challenge', 'concede', 'retract', 'abstain', 'm1', 'm2', 'A1', 'A2',
  'arbiter.trace/1', 'arbiter.labels/1', 'random', 'escalation',
  '2026-11-30T12:00:00Z', '2026-11-30T12:00Z', '9999-12-31T23:00:00-05:00', '0000-01-01T00:30:00+01:00', '2026-02-30T12:00:00Z', '2026-11-30 12:00:00',
  [], {}, ['a'], ['a', 'a'], ['a', 'b'], [1, 2], [null], { id: 'A9' }, { id: 'm1', round: 0, seat: 'A1', force: 'propose', answer: 'true' },
  nest(64), nest(65)
]
