/**
 * A round's bound L_t as 8 bytes whose byte order is the numbers' order (a decision row's
 * `round_keys`, SQLite migration 9): the IEEE-754 bits, big-endian, with the sign bit flipped for
 * a number ≥ 0 and every bit flipped for a negative one. SQLite compares BLOBs with memcmp, so
 * "L_t ≥ 1 − α" becomes `substr(round_keys, 8t + 1, 8) >= key(1 − α)`: exact (no decimal text
 * between), and in SQLite's C while a re-decide copies a million rows. −0 is keyed as +0 (they
 * compare equal as numbers); a missing bound (NaN) is all zero bytes, below every number, so it
 * never reaches a threshold, as in the stopping rule.
 */
const scratch = new DataView(new ArrayBuffer(8))

function putKey(out: Uint8Array, at: number, x: number): void {
  if (Number.isNaN(x)) {
    out.fill(0, at, at + 8)
    return
  }
  scratch.setFloat64(0, x === 0 ? 0 : x)
  const hi = scratch.getUint32(0)
  const lo = scratch.getUint32(4)
  const negative = (hi & 0x80000000) !== 0
  const view = new DataView(out.buffer, out.byteOffset + at, 8)
  view.setUint32(0, negative ? ~hi >>> 0 : (hi ^ 0x80000000) >>> 0)
  view.setUint32(4, negative ? ~lo >>> 0 : lo)
}

/** values[at … at + n) as keys, 8 bytes each. */
export function roundKeysOf(values: Float64Array, at: number, n: number): Buffer {
  const out = Buffer.alloc(8 * n)
  for (let i = 0; i < n; i++) putKey(out, 8 * i, values[at + i])
  return out
}

/** One number's key (a threshold 1 − α to compare round keys with). */
export function numberKey(x: number): Buffer {
  return roundKeysOf(Float64Array.of(x), 0, 1)
}
