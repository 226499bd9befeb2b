/**
 * Slack's rate limits as token buckets (the rules in src/slack/rate-rules.ts,
 * which the bridge paces to): chat.postMessage about one a second per
 * channel with a short burst and a workspace-wide budget, and the per-minute
 * tiers of the other methods dsh-slack calls. Over the limit, Slack answers
 * HTTP 429 with `Retry-After` (whole seconds) and `{ ok: false, error: 'ratelimited' }`.
 */
import type { RateRule } from '../slack/rate-rules.js'
import type { SandboxClock } from './clock.js'

export type { RateRule } from '../slack/rate-rules.js'

interface Bucket {
  tokens: number
  updatedAt: number
}

/** One bucket a call takes from: its key and its rule. */
export interface RateBucket {
  key: string
  rule: RateRule
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(private readonly clock: SandboxClock) {}

  /** Takes one call from `key`'s bucket: `0` when allowed, else the seconds to wait (Retry-After). */
  take(key: string, rule: RateRule): number {
    return this.takeAll([{ key, rule }])
  }

  /**
   * Takes one call from every bucket, or from none: `0` when all allow it,
   * else the seconds until the slowest of them would (Retry-After).
   */
  takeAll(wanted: readonly RateBucket[]): number {
    const now = this.clock.now()
    let wait = 0
    const refilled = wanted.map(({ key, rule }) => {
      const bucket = this.buckets.get(key) ?? { tokens: rule.burst, updatedAt: now }
      bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rule.perSecond)
      bucket.updatedAt = now
      this.buckets.set(key, bucket)
      // A hair of tolerance: float sums of refills must not turn a conforming call away.
      if (bucket.tokens < 1 - 1e-9) wait = Math.max(wait, Math.max(1, Math.ceil((1 - bucket.tokens) / rule.perSecond)))
      return bucket
    })
    if (wait > 0) return wait
    for (const bucket of refilled) bucket.tokens -= 1
    return 0
  }
}
