/**
 * Interactive writes first (issue #16). SQLite has one write lock and no queue: a connection that
 * finds it taken sleeps in its busy handler (1, 2, 5 … 100 ms) and retries. A background writer —
 * a decide writing its pages, an import its batches — takes the lock again the moment it commits,
 * so a reviewer's label could wait a second behind a refit it never sees. The gate is a counter
 * shared by every thread of the process (a SharedArrayBuffer in the workers' environment data,
 * which nested workers inherit): an interactive write counts itself in while it waits and runs; a
 * background transaction waits, before it asks for the lock, until no interactive write is counted
 * (bounded, so a stream of labels delays a refit but never starves it). Other processes on the
 * same file are not gated; they keep SQLite's busy handler alone.
 */
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads'

/** The environment-data key (node:worker_threads) under which the gate's memory is shared. */
export const WRITE_GATE_KEY = 'arbiter.sqliteWriteGate'

/** How long one background transaction may wait for interactive writes (each of those is short). */
export const BACKGROUND_MAX_WAIT_MS = 500

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
    buffer = new SharedArrayBuffer(4)
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
  Atomics.add(g, 0, 1)
  try {
    return fn()
  } finally {
    if (Atomics.sub(g, 0, 1) === 1) Atomics.notify(g, 0)
  }
}

/** Before a background transaction: waits while interactive writes are counted, at most `maxMs`. */
export function yieldToInteractive(maxMs = BACKGROUND_MAX_WAIT_MS): void {
  const g = gate()
  const end = performance.now() + maxMs
  for (let n = Atomics.load(g, 0); n > 0; n = Atomics.load(g, 0)) {
    const left = end - performance.now()
    if (left <= 0) return
    Atomics.wait(g, 0, n, left)
  }
}

/** Interactive writes counted in now (tests). */
export function interactiveWrites(): number {
  return Atomics.load(gate(), 0)
}
