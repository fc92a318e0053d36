import { describe, expect, it } from 'vitest'
import { FitRunner, MAX_WAIT_PERIODS } from '../../../src/main/service/fit/runner'
import type { FitRecord } from '../../../src/main/store'

const fit = (id: string) => ({ id }) as FitRecord

describe('FitRunner: one fit at a time, and the debounced background refit', () => {
  it('runs queued fits one after the other, each landing in order', async () => {
    const log: string[] = []
    let n = 0
    const runner = new FitRunner(
      async () => {
        const id = `f${++n}`
        log.push(`start ${id}`)
        await new Promise((r) => setTimeout(r, 20))
        log.push(`end ${id}`)
        return fit(id)
      },
      (f) => log.push(`landed ${f.id}`)
    )
    const first = runner.now()
    await new Promise((r) => setImmediate(r)) // the first has started: the second queues behind it
    const [a, b] = await Promise.all([first, runner.now()])
    expect([a.id, b.id]).toEqual(['f1', 'f2'])
    expect(log).toEqual(['start f1', 'end f1', 'landed f1', 'start f2', 'end f2', 'landed f2'])
    expect(runner.status()).toMatchObject({ running: false, scheduledFor: null, lastError: null })
  })

  it('shares a fit still waiting its turn: fits asked for while one is queued are that one, a re-decide is not', async () => {
    let runs = 0
    let release: () => void = () => {}
    const asked: (string | null)[] = []
    const runner = new FitRunner(async (redecide, actor) => {
      runs++
      asked.push(actor?.reviewer ?? null)
      if (runs === 1) await new Promise<void>((r) => (release = r))
      return fit(redecide === null ? `f${runs}` : `d${runs}`)
    }, () => {})
    const alice = { reviewer: 'alice', sessionId: 's-alice', shell: 'web' as const }
    const bob = { reviewer: 'bob', sessionId: 's-bob', shell: 'web' as const }
    const running = runner.now(null, alice)
    await expect.poll(() => runs).toBe(1)
    const queued = [runner.now(null, bob), runner.now(null, alice), runner.now(null, bob)]
    runner.schedule(0) // a label meanwhile: its refit is the queued fit too
    await new Promise((r) => setTimeout(r, 20))
    const redecide = runner.now({ fitId: 'f1', budget: { kind: 'absolute', beta: 0.1 } }, alice)
    release()
    const ids = (await Promise.all([running, ...queued, redecide])).map((f) => f.id)
    expect(ids).toEqual(['f1', 'f2', 'f2', 'f2', 'd3'])
    expect(runs).toBe(3)
    expect(asked).toEqual(['alice', 'bob', 'alice']) // the queued fit is the first asker's
    // Once it has started, the next fit asked for queues anew.
    await expect(runner.now(null, alice)).resolves.toMatchObject({ id: 'f4' })
    await runner.close()
  })

  it('debounces: many labels in a quiet period give one refit', async () => {
    let runs = 0
    const landed: string[] = []
    const runner = new FitRunner(async () => fit(`f${++runs}`), (f) => landed.push(f.id))
    for (let i = 0; i < 5; i++) {
      runner.schedule(40)
      await new Promise((r) => setTimeout(r, 5))
    }
    expect(runner.status().scheduledFor).not.toBeNull()
    await expect.poll(() => landed, { timeout: 2000 }).toEqual(['f1'])
    expect(runs).toBe(1)
  })

  it('queues at most one background refit behind a running fit, which then reads every label given meanwhile', async () => {
    let runs = 0
    let release: () => void = () => {}
    const runner = new FitRunner(async () => {
      runs++
      if (runs === 1) await new Promise<void>((r) => (release = r))
      return fit(`f${runs}`)
    }, () => {})
    runner.schedule(0)
    await expect.poll(() => runs).toBe(1)
    // Ten labels while the first refit runs: each timer fires, but only one refit waits its turn.
    for (let i = 0; i < 10; i++) {
      runner.schedule(0)
      await new Promise((r) => setTimeout(r, 5))
    }
    release()
    await expect.poll(() => runs).toBe(2)
    await new Promise((r) => setTimeout(r, 50))
    expect(runs).toBe(2)
    // Once that one has started, a new label queues the next.
    runner.schedule(0)
    await expect.poll(() => runs).toBe(3)
    await runner.close()
  })

  it('refits under a steady stream of labels: at the latest MAX_WAIT_PERIODS quiet periods after the first', async () => {
    let runs = 0
    const runner = new FitRunner(async () => fit(`f${++runs}`), () => {})
    // A label every 10 ms keeps restarting a 20 ms quiet period; without the cap no refit would ever run.
    const until = Date.now() + 20 * MAX_WAIT_PERIODS * 4
    while (Date.now() < until && runs === 0) {
      runner.schedule(20)
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(runs).toBeGreaterThanOrEqual(1)
    await runner.close()
  })

  it('reports a failed fit and keeps working', async () => {
    let fail = true
    const runner = new FitRunner(async () => {
      if (fail) throw new Error('no labels')
      return fit('ok')
    }, () => {})
    await expect(runner.now()).rejects.toThrow('no labels')
    expect(runner.status().lastError).toBe('no labels')
    fail = false
    expect((await runner.now()).id).toBe('ok')
    expect(runner.status().lastError).toBeNull()
  })

  it('cancels a pending refit on close', async () => {
    let runs = 0
    const runner = new FitRunner(async () => fit(`f${++runs}`), () => {})
    runner.schedule(20)
    await runner.close()
    await new Promise((r) => setTimeout(r, 50))
    expect(runs).toBe(0)
    runner.schedule(1) // ignored once closed
    await new Promise((r) => setTimeout(r, 20))
    expect(runs).toBe(0)
  })
})
