import { getPriority } from 'node:os'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { BACKGROUND_NICE } from '../../../src/main/service/jobs/background-priority'

const HELPER = fileURLToPath(new URL('../../../src/main/service/jobs/background-priority.ts', import.meta.url))
const TSX = createRequire(import.meta.url).resolve('tsx/cjs')

describe('a job thread lowers its own CPU priority, not its process\'s (issue #16)', () => {
  it.runIf(process.platform === 'linux')('on Linux the thread that calls it runs niced; the thread that started it keeps its priority', async () => {
    const before = getPriority(0)
    const code = `
      const { lowerThisThreadsPriority } = require(${JSON.stringify(HELPER)})
      const lowered = lowerThisThreadsPriority()
      require('node:worker_threads').parentPort.postMessage({ lowered, nice: require('node:os').getPriority(0) })`
    const worker = new Worker(code, { eval: true, execArgv: ['--require', TSX] })
    const got = await new Promise<{ lowered: boolean; nice: number }>((resolve, reject) => worker.on('message', resolve).on('error', reject))
    await worker.terminate()
    expect(got).toEqual({ lowered: true, nice: BACKGROUND_NICE })
    expect(getPriority(0)).toBe(before)
    expect(getPriority(process.pid)).toBe(before)
  })
})
