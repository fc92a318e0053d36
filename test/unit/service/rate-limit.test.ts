import { describe, expect, it } from 'vitest'
import { RateLimiter } from '../../../src/main/service/rate-limit'

describe('RateLimiter: a token bucket per key', () => {
  it('takes a burst at once, then refills at its rate, each key apart', () => {
    let now = 0
    const limiter = new RateLimiter('flags', { perSecond: 10, burst: 3 }, () => now)
    for (let i = 0; i < 3; i++) limiter.take('mallory')
    expect(() => limiter.take('mallory')).toThrow(/too many flags: at most 3 at once and 10 a second/)
    limiter.take('alice') // another login has its own bucket
    now = 50 // half a token
    let refused: unknown = null
    try {
      limiter.take('mallory')
    } catch (e) {
      refused = e
    }
    expect(refused).toMatchObject({ code: 'conflict', details: { reason: 'rate-limited', retryAfterMs: 50 } })
    now = 100
    limiter.take('mallory')
    expect(() => limiter.take('mallory')).toThrow(/too many flags/)
    now = 10_000 // a long pause refills no more than the burst
    for (let i = 0; i < 3; i++) limiter.take('mallory')
    expect(() => limiter.take('mallory')).toThrow(/too many flags/)
  })
})
