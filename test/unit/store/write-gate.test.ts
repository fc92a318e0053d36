import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { interactiveWrite, interactiveWrites, openWriteGate, WRITE_GATE_KEY, yieldToInteractive } from '../../../src/main/store/sqlite/write-gate'

describe('the SQLite write gate: background transactions let interactive writes go first (issue #16)', () => {
  it('a background transaction waits while an interactive write is counted, at most its cap', () => {
    openWriteGate()
    const t0 = performance.now()
    yieldToInteractive(1000)
    expect(performance.now() - t0).toBeLessThan(50)
    const waited = interactiveWrite(() => {
      expect(interactiveWrites()).toBe(1)
      const t1 = performance.now()
      yieldToInteractive(60) // nobody will end this write meanwhile: the cap ends the wait
      return performance.now() - t1
    })
    expect(waited).toBeGreaterThanOrEqual(55)
    expect(interactiveWrites()).toBe(0)
  })

  it('is shared with the workers a thread starts (and theirs): the wait ends when their write does', async () => {
    openWriteGate()
    // A worker of a worker counts an interactive write in for 150 ms, as a label on another thread would.
    const inner = `
      const { getEnvironmentData, parentPort } = require('node:worker_threads')
      const g = new Int32Array(getEnvironmentData(${JSON.stringify(WRITE_GATE_KEY)}))
      Atomics.add(g, 0, 1)
      parentPort.postMessage('in')
      setTimeout(() => { Atomics.sub(g, 0, 1); Atomics.notify(g, 0); parentPort.postMessage('out') }, 150)`
    const outer = `
      const { Worker, parentPort } = require('node:worker_threads')
      const w = new Worker(${JSON.stringify(inner)}, { eval: true })
      w.on('message', (m) => parentPort.postMessage(m))`
    const worker = new Worker(outer, { eval: true })
    await new Promise<void>((resolve) => worker.on('message', (m) => m === 'in' && resolve()))
    expect(interactiveWrites()).toBe(1)
    const t0 = performance.now()
    yieldToInteractive(5000)
    const waited = performance.now() - t0
    expect(interactiveWrites()).toBe(0)
    expect(waited).toBeGreaterThan(50)
    expect(waited).toBeLessThan(2000)
    await worker.terminate()
  })
})
