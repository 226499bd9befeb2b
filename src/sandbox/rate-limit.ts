/**
 * Slack's rate limits as token buckets: chat.postMessage about one a second
 * per channel with a short burst, and the per-minute tiers of the other
 * methods dsh-slack calls. Over the limit, Slack answers HTTP 429 with
 * `Retry-After` (whole seconds) and `{ ok: false, error: 'ratelimited' }`.
 */
import type { SandboxClock } from './clock.js'

interface Bucket {
  tokens: number
  updatedAt: number
}

export interface RateRule {
  /** Calls allowed per second on average. */
  perSecond: number
  /** Calls allowed at once before the average applies. */
  burst: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(private readonly clock: SandboxClock) {}

  /** Takes one call from `key`'s bucket: `0` when allowed, else the seconds to wait (Retry-After). */
  take(key: string, rule: RateRule): number {
    const now = this.clock.now()
    const bucket = this.buckets.get(key) ?? { tokens: rule.burst, updatedAt: now }
    bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rule.perSecond)
    bucket.updatedAt = now
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rule.perSecond))
  }
}
