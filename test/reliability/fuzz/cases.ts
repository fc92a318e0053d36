/**
 * The fuzz cases as fast-check arbitraries, and how a case becomes bytes: a seed file of the kind,
 * 0–4 mutations, now and then a hostile special line, and for CSV an optional gold file with
 * mutations of its own.
 */
import fc from 'fast-check'
import { pick } from './bytes'
import { applySpecial, specialArb, type Special } from './hostile'
import { applyOps, isBenign, opsFor, type Op } from './mutations'
import { delimiterOf } from './rename'
import type { SeedFile } from './seeds'

export interface FuzzCase {
  seed: number
  ops: Op[]
  special: Special | null
  /** CSV: whether the gold file is passed (`--gold`), and its mutations. */
  useGold: boolean
  goldOps: Op[]
}

/** `specialWeight` in 1/(1+weight) of the cases carries a hostile special line. */
export function caseArb(kind: 'json' | 'csv', specialWeight: number): fc.Arbitrary<FuzzCase> {
  const noGoldOps = fc.constant<Op[]>([])
  return fc.record({
    seed: fc.nat(),
    ops: opsFor(kind),
    special: fc.oneof({ arbitrary: fc.constant(null), weight: specialWeight }, { arbitrary: specialArb, weight: 1 }),
    useGold: kind === 'csv' ? fc.boolean() : fc.constant(false),
    goldOps: kind === 'csv' ? fc.oneof(noGoldOps, opsFor('csv')) : noGoldOps
  })
}

export const seedOf = (seeds: readonly SeedFile[], c: FuzzCase): SeedFile => seeds[pick(c.seed, seeds.length)]

export function bytesOf(seed: Pick<SeedFile, 'kind' | 'dialect' | 'fileName'>, bytes: Buffer, gold: Buffer | null, c: FuzzCase): { bytes: Buffer; gold: Buffer | null } {
  const delimiter = seed.kind === 'csv' ? delimiterOf(seed) : ','
  const kind = seed.kind === 'csv' ? 'csv' : 'json'
  let out = applyOps(bytes, c.ops, delimiter)
  if (c.special !== null) out = applySpecial(out, c.special, kind, delimiter)
  const g = gold === null || !c.useGold ? null : applyOps(gold, c.goldOps, delimiter)
  return { bytes: out, gold: g }
}

/** Only edits that must not change the meaning (BOM, CRLF, blank lines, final newline). */
export const benignCase = (c: FuzzCase): boolean => c.special === null && isBenign(c.ops) && isBenign(c.goldOps)
