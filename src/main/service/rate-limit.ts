/**
 * A token bucket per key (a login's reviewer): `burst` calls at once, refilled at `perSecond`.
 * A call that finds the bucket empty is refused before it does anything, with a `conflict` whose
 * `details.reason` is `rate-limited` and which says when the next call would pass.
 */
import { ApiError } from '../../shared/errors'

export interface Rate {
  perSecond: number
  burst: number
}

interface Bucket {
  tokens: number
  at: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly what: string,
    private readonly rate: Rate,
    private readonly now: () => number = Date.now
  ) {}

  /** Takes one call from `key`'s bucket, or throws the `rate-limited` conflict. */
  take(key: string): void {
    const now = this.now()
    const b = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now }
    b.tokens = Math.min(this.rate.burst, b.tokens + ((now - b.at) / 1000) * this.rate.perSecond)
    b.at = now
    if (b.tokens < 1) {
      this.buckets.set(key, b)
      const retryAfterMs = Math.ceil(((1 - b.tokens) / this.rate.perSecond) * 1000)
      throw new ApiError('conflict', `too many ${this.what}: at most ${this.rate.burst} at once and ${this.rate.perSecond} a second; try again in a moment`, { reason: 'rate-limited', retryAfterMs })
    }
    b.tokens -= 1
    // One bucket per login that ever called: the logins are few, and fixed while the server runs.
    this.buckets.set(key, b)
  }
}
