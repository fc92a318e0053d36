import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { backgroundWrite, backgroundWrites, interactiveWrite, interactiveWrites, openWriteGate, WRITE_GATE_KEY } from '../../../src/main/store/sqlite/write-gate'

/** A worker of a worker (as a decide's writer thread is) that counts itself in `counter` for `ms`. */
async function heldElsewhere(counter: 0 | 1, ms: number): Promise<Worker> {
  const inner = `
    const { getEnvironmentData, parentPort } = require('node:worker_threads')
    const g = new Int32Array(getEnvironmentData(${JSON.stringify(WRITE_GATE_KEY)}))
    Atomics.add(g, ${counter}, 1)
    parentPort.postMessage('in')
    setTimeout(() => { Atomics.sub(g, ${counter}, 1); Atomics.notify(g, ${counter}) }, ${ms})`
  const outer = `
    const { Worker, parentPort } = require('node:worker_threads')
    new Worker(${JSON.stringify(inner)}, { eval: true }).on('message', (m) => parentPort.postMessage(m))`
  const worker = new Worker(outer, { eval: true })
  await new Promise<void>((resolve) => worker.on('message', (m) => m === 'in' && resolve()))
  return worker
}

const timed = <T>(fn: () => T): number => {
  const t0 = performance.now()
  fn()
  return performance.now() - t0
}

describe('the SQLite write gate: background transactions let interactive writes go first (issue #16)', () => {
  it('runs either kind at once when the other is not counted, and counts each while it runs', () => {
    openWriteGate()
    expect(timed(() => backgroundWrite(() => expect(backgroundWrites()).toBe(1), 1000))).toBeLessThan(50)
    expect(timed(() => interactiveWrite(() => expect(interactiveWrites()).toBe(1)))).toBeLessThan(50)
    expect([interactiveWrites(), backgroundWrites()]).toEqual([0, 0])
  })

  it('a background transaction waits while an interactive write is counted, at most its cap', () => {
    // Nobody ends this interactive write meanwhile: the cap ends the background's wait.
    const waited = interactiveWrite(() => timed(() => backgroundWrite(() => undefined, 60)))
    expect(waited).toBeGreaterThanOrEqual(55)
    expect(interactiveWrites()).toBe(0)
  })

  it('is shared with the workers a thread starts (and theirs): a background transaction waits until their interactive write ends', async () => {
    openWriteGate()
    const worker = await heldElsewhere(0, 150)
    expect(interactiveWrites()).toBe(1)
    const waited = timed(() => backgroundWrite(() => undefined, 5000))
    expect(interactiveWrites()).toBe(0)
    expect(waited).toBeGreaterThan(50)
    expect(waited).toBeLessThan(2000)
    await worker.terminate()
  })

  it('an interactive write waits for the running background transaction, woken when it ends', async () => {
    openWriteGate()
    const worker = await heldElsewhere(1, 150)
    expect(backgroundWrites()).toBe(1)
    let ranWith = -1
    const waited = timed(() => interactiveWrite(() => (ranWith = backgroundWrites())))
    expect(ranWith).toBe(0)
    expect(waited).toBeGreaterThan(50)
    expect(waited).toBeLessThan(1000)
    await worker.terminate()
  })
})
