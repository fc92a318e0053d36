import type { z } from 'zod'

export type NumberText = { ok: true; value: number } | { ok: false; message: string }

/** Plain decimal notation (optionally with an exponent): what `Number()` accepts minus hex, "Infinity" and blanks. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/**
 * A numeric field's text, read against the setting's own zod schema: every value the schema accepts
 * is accepted, and what it rejects gets a sentence naming the field and the limit it broke.
 */
export function readNumberText(name: string, text: string, schema: z.ZodType<number>): NumberText {
  const t = text.trim()
  if (t === '') return { ok: false, message: `${name}: enter a number.` }
  if (!DECIMAL.test(t)) {
    const withPoint = t.replace(',', '.')
    return DECIMAL.test(withPoint)
      ? { ok: false, message: `${name}: use a decimal point (${withPoint}), not a comma.` }
      : { ok: false, message: `${name}: “${t}” is not a number.` }
  }
  const parsed = schema.safeParse(Number(t))
  if (parsed.success) return { ok: true, value: parsed.data }
  return { ok: false, message: `${name}: ${limitBroken(parsed.error.issues[0])}` }
}

function limitBroken(issue: z.core.$ZodIssue | undefined): string {
  if (issue?.code === 'too_small') return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}.`
  if (issue?.code === 'too_big') return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}.`
  return issue?.message ?? 'not accepted.'
}
