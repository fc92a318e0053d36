/**
 * H(x) mod m is the same whichever SHA-256 computes it (src/main/engine/hash.ts): node:crypto
 * before the WebAssembly one is loaded, hash-wasm after. Checked against node:crypto directly on
 * ASCII, accented, CJK and astral keys, the key shapes the engine hashes, and every modulus kind.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashMod, useWasmSha256 } from '../../../src/main/engine/hash'

/** The reference: the digest read as a big-endian integer, reduced with BigInt. */
function reference(x: string, m: number): number {
  return Number(BigInt(`0x${createHash('sha256').update(x, 'utf8').digest('hex')}`) % BigInt(m))
}

const KEYS = [
  '', 'a', '0:spot:choice-0000001', '7:task-42', 'scale:binary-0999999', 'café', 'naïve—dash', '日本語のタスク', '😀 emoji 🚀',
  'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'long '.repeat(40),
  ...Array.from({ length: 300 }, (_, i) => `${i % 7}:spot:t-${i * 7919}`)
]
const MODULI = [1, 2, 3, 7, 10000, 65537, 2 ** 31 - 1, 2 ** 44 + 7]

describe('hashMod', () => {
  it('agrees with node:crypto before and after the WebAssembly SHA-256 is loaded', async () => {
    const before = KEYS.flatMap((k) => MODULI.map((m) => hashMod(k, m)))
    expect(before).toEqual(KEYS.flatMap((k) => MODULI.map((m) => reference(k, m))))
    await useWasmSha256()
    await useWasmSha256() // loading twice is harmless
    const after = KEYS.flatMap((k) => MODULI.map((m) => hashMod(k, m)))
    expect(after).toEqual(before)
  })

  it('refuses a modulus it cannot reduce exactly', () => {
    for (const m of [0, -1, 1.5, 2 ** 45, Number.NaN]) expect(() => hashMod('a', m)).toThrow(RangeError)
  })
})
