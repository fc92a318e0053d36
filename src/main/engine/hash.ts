// One-shot `hash` (no Hash object per call): spot-checks and tie-breaks hash every decided task.
import { hash } from 'node:crypto'
import { createSHA256, type IHasher } from 'hash-wasm'

/**
 * SHA-256 in WebAssembly (hash-wasm), once `useWasmSha256` has loaded it: for the short strings
 * the engine hashes it costs less per call than node:crypto, whose per-call cost is most of a
 * decide's hashing (a spot-check key per decided task). Both are SHA-256, so
 * every result is the same bit for bit (test/unit/engine/hash.test.ts); until it is loaded, and
 * wherever no one loads it, node:crypto hashes.
 */
let wasm: IHasher | null = null

/** Loads the WebAssembly SHA-256 (asynchronous, once per thread); later hashes use it. */
export async function useWasmSha256(): Promise<void> {
  wasm ??= await createSHA256()
}

// The last digest: a decide breaks the ties of one task at every round with the same key.
let lastKey: string | null = null
let lastDigest: Uint8Array = new Uint8Array(0)

function sha256(x: string): Uint8Array {
  if (x === lastKey) return lastDigest
  let digest: Uint8Array
  if (wasm === null) digest = hash('sha256', x, 'buffer')
  else {
    wasm.init()
    wasm.update(x)
    digest = wasm.digest('binary')
  }
  lastKey = x
  lastDigest = digest
  return digest
}

/**
 * H(x) mod m, where H(x) is the SHA-256 digest of the UTF-8 string x read as a big-endian
 * integer (docs/engine.md, notation). Every seeded convention of the engine (tie-breaks, folds,
 * splits, spot-checks, bootstrap draws) goes through this one function so that two
 * implementations agree bit for bit.
 *
 * Reduces byte by byte (r = (256·r + b) mod m), exact while 256·m < 2^53.
 * @throws RangeError when m is not a positive safe integer below 2^45.
 */
export function hashMod(x: string, m: number): number {
  if (!Number.isInteger(m) || m <= 0 || m >= 2 ** 45) throw new RangeError(`hashMod: bad modulus ${m}`)
  const digest = sha256(x)
  let r = 0
  for (let i = 0; i < digest.length; i++) r = (r * 256 + digest[i]) % m
  return r
}

/** H(x) as a 64-hex-digit string; sorting these strings sorts by H(x) as an integer. */
export function hashHex(x: string): string {
  return hash('sha256', x, 'hex')
}
