/**
 * A small seeded PRNG for the simulator: sfc32 (Chris Doty-Humphrey's Small Fast Counting
 * generator, 128-bit state, period ≥ 2^32, passes PractRand) seeded through splitmix32.
 *
 * Why not Math.random: simulated councils must be reproducible bit for bit from a seed, across
 * machines and Node versions. Why not the engine's SHA-256 `H`: one hash per draw is far too slow
 * for a million-task benchmark. The simulator is not part of the engine contract, so any good fast
 * generator will do — but once traces are published under a seed, this file must not change.
 */
export interface Rng {
  /** Uniform float in [0, 1), 32 bits of resolution. */
  next(): number
  /** Uniform integer in [0, n); n ≥ 1. */
  int(n: number): number
  /** True with probability p. */
  chance(p: number): boolean
  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T
}

/** 32-bit FNV-1a of a string, so string seeds ("demo", "text") work as well as numbers. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** splitmix32 step: spreads a poor seed (0, 1, 2 …) over the whole state. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0
  let z = state.s
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/**
 * A generator for `seed` and an optional `stream` name. Different streams of one seed are
 * independent, which lets optional outputs (text, confidences) draw from their own stream so that
 * switching them on never changes the moves.
 */
export function createRng(seed: number | string, stream = ''): Rng {
  // Integer seeds keep their low 32 bits verbatim (high bits hashed in); anything else is hashed.
  const base =
    typeof seed === 'number' && Number.isSafeInteger(seed)
      ? (seed >>> 0) ^ fnv1a(`#${Math.floor(seed / 2 ** 32)}`)
      : fnv1a(String(seed))
  const mix = { s: (base ^ fnv1a(`stream:${stream}`)) | 0 }
  let a = splitmix32(mix)
  let b = splitmix32(mix)
  let c = splitmix32(mix)
  let d = splitmix32(mix)

  const nextU32 = (): number => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  // Discard the first outputs: sfc32's state needs a few rounds to decorrelate from the seed.
  for (let i = 0; i < 12; i++) nextU32()

  const next = (): number => nextU32() / 4294967296
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]
  }
}
