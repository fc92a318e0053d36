/**
 * Structural mutations of one JSONL line: parse it, pick a node by preorder index, change it,
 * serialise again. Deleting, duplicating and swapping fields and array elements (moves, candidates,
 * seats), changing a value's type, and repeating a key (JSON.parse keeps the last) reach every
 * rule of docs/engine.md §1. A line that no longer parses is left as it is (the byte mutations cover it).
 */
import { pick } from './bytes'
import { REPLACEMENTS, stringifyWithRaw } from './values'

export type JsonOp =
  | { kind: 'delete'; node: number }
  | { kind: 'duplicate'; node: number }
  | { kind: 'swap'; node: number; other: number }
  | { kind: 'retype'; node: number; value: number }
  | { kind: 'duplicate-key'; node: number }

type Container = Record<string, unknown> | unknown[]
/** A slot: a container and a key (an index for arrays) holding a value. */
type Slot = { parent: Container; key: string | number }

function slots(root: unknown): Slot[] {
  const out: Slot[] = []
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== 'object') return
    const c = v as Container
    const keys: (string | number)[] = Array.isArray(c) ? c.map((_, i) => i) : Object.keys(c)
    for (const k of keys) {
      out.push({ parent: c, key: k })
      visit((c as Record<string | number, unknown>)[k], depth + 1)
    }
  }
  visit(root, 0)
  return out
}

const get = (s: Slot): unknown => (s.parent as Record<string | number, unknown>)[s.key]
const set = (s: Slot, v: unknown): void => {
  ;(s.parent as Record<string | number, unknown>)[s.key] = v
}
const clone = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)))

export function mutateJsonLine(line: Buffer, m: JsonOp): Buffer {
  let root: unknown
  try {
    root = JSON.parse(line.toString('utf8'))
  } catch {
    return line
  }
  const all = slots(root)
  if (all.length === 0) return line
  const s = all[pick(m.node, all.length)]
  switch (m.kind) {
    case 'delete':
      if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1)
      else delete s.parent[s.key as string]
      break
    case 'duplicate':
      if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 0, clone(get(s)))
      else s.parent[`${String(s.key)}_copy`] = clone(get(s))
      break
    case 'swap': {
      const o = all[pick(m.other, all.length)]
      const v = get(s)
      set(s, get(o))
      set(o, v)
      break
    }
    case 'retype':
      set(s, clone(REPLACEMENTS[pick(m.value, REPLACEMENTS.length)]))
      break
    case 'duplicate-key':
      return duplicateKey(root, s)
  }
  return Buffer.from(stringifyWithRaw(root), 'utf8')
}

/** `{"k":v, …}` → `{"k":"shadowed", "k":v, …}`: JSON.parse keeps the last occurrence. */
function duplicateKey(root: unknown, s: Slot): Buffer {
  if (Array.isArray(s.parent)) return Buffer.from(stringifyWithRaw(root), 'utf8')
  const marker = '\u0000DUPKEY\u0000'
  const old = s.parent[s.key as string]
  s.parent[s.key as string] = marker
  const text = stringifyWithRaw(root).replace(JSON.stringify(marker), () => `"shadowed",${JSON.stringify(s.key)}:${stringifyWithRaw(old === undefined ? null : old)}`)
  return Buffer.from(text, 'utf8')
}
