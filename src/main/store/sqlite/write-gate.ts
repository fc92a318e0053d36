/**
 * The main thread's writes first. SQLite has one write lock and no queue: a connection
 * that finds it taken sleeps in its busy handler (1, 2, 5 … 100 ms) and retries. A background
 * writer — a refit writing its decision pages, an import its batches — takes the lock again the
 * moment it commits, so a reviewer's label waited up to a second behind a refit it never sees.
 *
 * The gate is a counter shared by every thread of the process (a SharedArrayBuffer in the workers'
 * environment data, which nested workers inherit). A write on the main thread — where the console's
 * and the CLI's service runs every reviewer's call — counts itself in while it waits for the lock
 * and runs; a write on a worker thread — where jobs and their writer threads run — first waits
 * until no main-thread write is counted (bounded: a stream of labels slows a refit but never
 * starves it). Only the main thread counts, and it cannot be stopped in the middle of a write
 * while the process lives, so a count is never left behind: a worker terminated mid-transaction
 * (a cancelled job) has counted nothing. Other processes on the same file are not gated; they
 * keep SQLite's busy handler alone.
 */
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads'

/** The environment-data key (node:worker_threads) under which the gate's memory is shared. */
export const WRITE_GATE_KEY = 'arbiter.sqliteWriteGate'

/** How long one background transaction may wait for the main thread's writes (each of those is short). */
export const BACKGROUND_MAX_WAIT_MS = 500

let counter: Int32Array | null = null

/**
 * The process's gate. The main thread makes it as its first store opens, before that store can
 * start a worker, so every worker — and every worker a worker starts — gets the same memory.
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

/** A write transaction, through the gate: counted in on the main thread, after the main thread's writes on a worker. */
export function gatedWrite<T>(write: () => T, mainThread = isMainThread): T {
  if (!mainThread) {
    yieldToMainThread()
    return write()
  }
  const g = gate()
  Atomics.add(g, 0, 1)
  try {
    return write()
  } finally {
    if (Atomics.sub(g, 0, 1) === 1) Atomics.notify(g, 0)
  }
}

/** Before a worker's write: waits while main-thread writes are counted, at most `maxMs`. */
export function yieldToMainThread(maxMs = BACKGROUND_MAX_WAIT_MS): void {
  const g = gate()
  const end = performance.now() + maxMs
  for (let n = Atomics.load(g, 0); n > 0; n = Atomics.load(g, 0)) {
    const left = end - performance.now()
    if (left <= 0) return
    Atomics.wait(g, 0, n, left)
  }
}

/** Main-thread writes counted in now (tests). */
export function mainThreadWrites(): number {
  return Atomics.load(gate(), 0)
}
