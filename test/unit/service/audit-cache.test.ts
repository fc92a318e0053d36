import { describe, expect, it } from 'vitest'
import { AuditCache } from '../../../src/main/service/audit/cache'
import type { AuditSummary } from '../../../src/shared/api'

/** Computations the test finishes by hand, in the order it chooses. */
function computations() {
  const started: { key: string; finish: () => void; fail: (e: Error) => void }[] = []
  let running = 0
  let most = 0
  const compute = (key: string) => () =>
    new Promise<AuditSummary>((resolve, reject) => {
      running++
      most = Math.max(most, running)
      const end = () => running--
      started.push({ key, finish: () => (end(), resolve({ computedAt: key } as AuditSummary)), fail: (e) => (end(), reject(e)) })
    })
  return { compute, started, most: () => most }
}

const tick = () => new Promise((r) => setImmediate(r))

describe('AuditCache: one computation per state, a bounded number at once', () => {
  it('shares one computation between concurrent opens of the same state', async () => {
    const cache = new AuditCache(1)
    const c = computations()
    const opens = [cache.get('k1', c.compute('k1')), cache.get('k1', c.compute('k1')), cache.get('k1', c.compute('k1'))]
    expect(c.started).toHaveLength(1)
    c.started[0].finish()
    expect((await Promise.all(opens)).map((s) => s.computedAt)).toEqual(['k1', 'k1', 'k1'])
    await expect(cache.get('k1', c.compute('k1'))).resolves.toMatchObject({ computedAt: 'k1' })
    expect(c.started).toHaveLength(1)
  })

  it('runs eight opens of eight states as two computations, one at a time: the waiting one is the newest', async () => {
    const cache = new AuditCache(1)
    const c = computations()
    const opens = Array.from({ length: 8 }, (_, i) => cache.get(`k${i}`, c.compute(`k${i}`)))
    expect(c.started.map((s) => s.key)).toEqual(['k0'])
    expect(cache.active).toBe(1)
    c.started[0].finish()
    await tick()
    // The one waiting started when the worker was free: the newest state asked for, once.
    expect(c.started.map((s) => s.key)).toEqual(['k0', 'k7'])
    c.started[1].finish()
    expect((await Promise.all(opens)).map((s) => s.computedAt)).toEqual(['k0', 'k7', 'k7', 'k7', 'k7', 'k7', 'k7', 'k7'])
    expect(c.most()).toBe(1)
    expect(cache.active).toBe(0)
  })

  it('lets a failure reach its callers only, and starts the waiting computation after it', async () => {
    const cache = new AuditCache(1)
    const c = computations()
    const failing = cache.get('a', c.compute('a'))
    const waiting = cache.get('b', c.compute('b'))
    c.started[0].fail(new Error('worker died'))
    await expect(failing).rejects.toThrow(/worker died/)
    await tick()
    c.started[1].finish()
    await expect(waiting).resolves.toMatchObject({ computedAt: 'b' })
    // A failed computation is not remembered: the same state is computed again.
    const again = cache.get('a', c.compute('a'))
    expect(c.started).toHaveLength(3)
    c.started[2].finish()
    await expect(again).resolves.toMatchObject({ computedAt: 'a' })
  })
})
