import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { gatedWrite, mainThreadWrites, openWriteGate, WRITE_GATE_KEY, yieldToMainThread } from '../../../src/main/store/sqlite/write-gate'

const GATE = fileURLToPath(new URL('../../../src/main/store/sqlite/write-gate.ts', import.meta.url))
const TSX = createRequire(import.meta.url).resolve('tsx/cjs')

const message = (w: Worker, want: string) => new Promise<void>((resolve, reject) => w.on('message', (m) => m === want && resolve()).on('error', reject))

describe('the SQLite write gate: the main thread\'s writes go first', () => {
  it('a main-thread write is counted while it runs; a worker\'s write waits for it, at most its cap', () => {
    openWriteGate()
    const t0 = performance.now()
    yieldToMainThread(1000)
    expect(performance.now() - t0).toBeLessThan(50)
    const waited = gatedWrite(() => {
      expect(mainThreadWrites()).toBe(1)
      const t1 = performance.now()
      yieldToMainThread(60) // nobody ends this write meanwhile: the cap ends the wait
      return performance.now() - t1
    }, true)
    expect(waited).toBeGreaterThanOrEqual(55)
    expect(mainThreadWrites()).toBe(0)
    // A worker's write counts nothing: it only waits.
    expect(gatedWrite(() => mainThreadWrites(), false)).toBe(0)
  })

  it('is shared with the workers a thread starts (and theirs): the wait ends when the counted write does', async () => {
    openWriteGate()
    // A worker of a worker holds the count for 150 ms, as the main thread does while a label is written.
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
    await message(worker, 'in')
    expect(mainThreadWrites()).toBe(1)
    const t0 = performance.now()
    yieldToMainThread(5000)
    const waited = performance.now() - t0
    expect(mainThreadWrites()).toBe(0)
    expect(waited).toBeGreaterThan(50)
    expect(waited).toBeLessThan(2000)
    await worker.terminate()
  })

  it('a worker terminated in the middle of its write leaves no count behind (a cancelled job never slows the next label)', async () => {
    openWriteGate()
    const code = `
      const { parentPort } = require('node:worker_threads')
      const { gatedWrite } = require(${JSON.stringify(GATE)})
      gatedWrite(() => {
        parentPort.postMessage('writing')
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000)
      })`
    const worker = new Worker(code, { eval: true, execArgv: ['--require', TSX] })
    await message(worker, 'writing')
    expect(mainThreadWrites()).toBe(0)
    await worker.terminate()
    expect(mainThreadWrites()).toBe(0)
    const t0 = performance.now()
    yieldToMainThread(2000)
    expect(performance.now() - t0).toBeLessThan(50)
  })
})
