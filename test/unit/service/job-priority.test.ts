/**
 * A job's thread yields the cores to the window's and the server's threads (jobs/priority.ts): on
 * Linux it lowers itself alone — the thread that started it keeps its priority — and elsewhere it
 * changes nothing (there the call would lower the whole process).
 */
import { createRequire } from 'node:module'
import { getPriority } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { JOB_NICE, lowerThisThread } from '../../../src/main/service/jobs/priority'

const PRIORITY = join(__dirname, '../../../src/main/service/jobs/priority.ts')
const tsxHook = createRequire(__filename).resolve('tsx/cjs')

/** Runs lowerThisThread in a thread of its own; what it returned and the thread's nice value after. */
function inThread(): Promise<{ returned: number | null; nice: number }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads')
    require(workerData.hook)
    const { lowerThisThread } = require(workerData.file)
    const returned = lowerThisThread()
    parentPort.postMessage({ returned, nice: require('node:os').getPriority(0) })`
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { hook: tsxHook, file: PRIORITY } })
    w.once('message', (m) => {
      resolve(m)
      void w.terminate()
    })
    w.once('error', reject)
  })
}

describe('a job thread’s priority', () => {
  it.runIf(process.platform === 'linux')('is lowered in the job’s own thread only, on Linux', async () => {
    const before = getPriority(0)
    const got = await inThread()
    expect(got.nice).toBe(Math.max(before, JOB_NICE))
    expect(got.returned).toBe(got.nice)
    // The thread that started the job (the window's, the server's) runs as before.
    expect(getPriority(0)).toBe(before)
  })

  it('is left alone where a thread cannot be lowered alone', () => {
    const before = getPriority(0)
    expect(lowerThisThread('darwin')).toBeNull()
    expect(lowerThisThread('win32')).toBeNull()
    expect(getPriority(0)).toBe(before)
  })
})
