/**
 * Interactive writes first (issue #16). SQLite has one write lock and no queue: a connection that
 * finds it taken sleeps in its busy handler (1, 2, 5 … 100 ms) and retries. A background writer —
 * a decide writing its pages, an import its batches — takes the lock again the moment it commits,
 * so a reviewer's label could wait a second behind a refit it never sees. The gate is two counters
 * shared by every thread of the process (a SharedArrayBuffer in the workers' environment data,
 * which nested workers inherit): interactive writes waiting or running, and background
 * transactions running. A background transaction first waits until no interactive write is
 * counted (bounded, so a stream of labels delays a refit but never starves it); an interactive
 * write waits for the running background transaction to end — woken the moment it commits, not at
 * the busy handler's next retry — and then asks for the lock. SQLite's lock stays the only rule of
 * correctness: the gate only orders who asks first. Other processes on the same file are not
 * gated; they keep SQLite's busy handler alone.
 */
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads'

/** The environment-data key (node:worker_threads) under which the gate's memory is shared. */
export const WRITE_GATE_KEY = 'arbiter.sqliteWriteGate'

/** How long one background transaction may wait for interactive writes (each of those is short). */
export const BACKGROUND_MAX_WAIT_MS = 500
/** How long an interactive write waits for a background transaction before asking anyway (the busy timeout still applies). */
const INTERACTIVE_MAX_WAIT_MS = 2000
/** The counters: interactive writes waiting or running; background transactions running. */
const INTERACTIVE = 0
const BACKGROUND = 1

let counter: Int32Array | null = null

/**
 * The process's gate. The main thread makes it before it starts a worker (the store opens first),
 * so every worker — and every worker a worker starts — gets the same memory.
 */
function gate(): Int32Array {
  if (counter !== null) return counter
  let buffer = getEnvironmentData(WRITE_GATE_KEY) as SharedArrayBuffer | undefined
  if (buffer === undefined) {
    // A worker started before any store opened makes its own: it gates that worker's threads only.
    buffer = new SharedArrayBuffer(8)
    setEnvironmentData(WRITE_GATE_KEY, buffer)
  }
  return (counter = new Int32Array(buffer))
}

/** Makes the gate now: call before the first worker starts. */
export function openWriteGate(): void {
  gate()
}

/** Runs an interactive write, counted from before it asks for the lock until it is done. */
export function interactiveWrite<T>(fn: () => T): T {
  const g = gate()
  Atomics.add(g, INTERACTIVE, 1)
  try {
    waitWhile(g, BACKGROUND, INTERACTIVE_MAX_WAIT_MS)
    return fn()
  } finally {
    if (Atomics.sub(g, INTERACTIVE, 1) === 1) Atomics.notify(g, INTERACTIVE)
  }
}

/** Runs a background transaction once no interactive write is counted (waiting at most `maxMs`). */
export function backgroundWrite<T>(fn: () => T, maxMs = BACKGROUND_MAX_WAIT_MS): T {
  const g = gate()
  waitWhile(g, INTERACTIVE, maxMs)
  Atomics.add(g, BACKGROUND, 1)
  try {
    return fn()
  } finally {
    if (Atomics.sub(g, BACKGROUND, 1) === 1) Atomics.notify(g, BACKGROUND)
  }
}

/** Blocks while counter `at` is above 0, at most `maxMs`. */
function waitWhile(g: Int32Array, at: number, maxMs: number): void {
  const end = performance.now() + maxMs
  for (let n = Atomics.load(g, at); n > 0; n = Atomics.load(g, at)) {
    const left = end - performance.now()
    if (left <= 0) return
    Atomics.wait(g, at, n, left)
  }
}

/** Interactive writes counted in now (tests). */
export function interactiveWrites(): number {
  return Atomics.load(gate(), INTERACTIVE)
}

/** Background transactions running now (tests). */
export function backgroundWrites(): number {
  return Atomics.load(gate(), BACKGROUND)
}
