import { hashHex } from './hash'

/**
 * Stratified CV folds (docs/engine.md §7): classes in sorted gold order (JavaScript's default string
 * order), within a class tasks sorted by H(`${seed}:fold:${task}`) (hex order = integer order),
 * the concatenation dealt round-robin: fold = position mod F. Returns fold[i] for items[i].
 * Deterministic, independent of input order (up to duplicate task ids). O(n log n) + n hashes.
 */
export function stratifiedFolds(items: readonly { task: string; gold: string }[], F: number, seed: number): Int32Array {
  if (!Number.isInteger(F) || F < 1) throw new RangeError(`folds: F must be a positive integer, got ${F}`)
  const classes = [...new Set(items.map((x) => x.gold))].sort()
  const byClass = new Map<string, { i: number; h: string }[]>()
  for (const c of classes) byClass.set(c, [])
  items.forEach((x, i) => byClass.get(x.gold)!.push({ i, h: hashHex(`${seed}:fold:${x.task}`) }))
  const fold = new Int32Array(items.length)
  let pos = 0
  for (const c of classes) {
    const list = byClass.get(c)!
    list.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : a.i - b.i))
    for (const { i } of list) fold[i] = pos++ % F
  }
  return fold
}
