import type { RateRule } from './rate-rules.js'

/**
 * A rule as a GCRA's terms: what one call costs at the average rate, and how
 * far ahead of now the bucket may run (the burst beyond the first call). An
 * unlimited rule costs nothing.
 */
export function gcraTerms(rule: RateRule): { costMs: number; burstMs: number } {
  const costMs = Number.isFinite(rule.perSecond) && rule.perSecond > 0 ? 1000 / rule.perSecond : 0
  return { costMs, burstMs: Math.max(0, rule.burst - 1) * costMs }
}

/**
 * A token bucket on our side of the wire (as a GCRA: one "theoretical arrival
 * time" instead of a token count). It is charged when a call is sent and
 * again when its answer arrives: Slack counts a call when it receives it,
 * somewhere between the two, so a bucket with Slack's own rule that charges
 * at the later time never lets through a call Slack's bucket would refuse,
 * however the network delays one call and hurries the next.
 */
export class RateBucket {
  /** Milliseconds one call costs at the average rate. */
  #cost = 0
  /** How far ahead of now the bucket may run: the burst beyond the first call. */
  #slack = 0
  #tat = -Infinity

  constructor(rule: RateRule) {
    this.setRule(rule)
  }

  /**
   * Paces later calls to `rule` (a budget learned from Slack's answers).
   * Calls already charged keep what they cost: a faster rule takes effect
   * for the next call, a bigger burst as the debt of earlier calls runs out.
   */
  setRule(rule: RateRule): void {
    const terms = gcraTerms(rule)
    this.#cost = terms.costMs
    this.#slack = terms.burstMs
  }

  /** Milliseconds until a call may be sent (0: now). */
  delay(now: number): number {
    return Math.max(0, this.#tat - this.#slack - now)
  }

  /** Charges a call sent at `now`. */
  take(now: number): void {
    this.#tat = Math.max(this.#tat, now) + this.#cost
  }

  /** Charges the call again at the time its answer arrived (the latest Slack can have counted it). */
  answered(at: number): void {
    this.#tat = Math.max(this.#tat, at + this.#cost)
  }

  /** Slack said 429: nothing goes out before `until`, and then the bucket starts empty. */
  pauseUntil(until: number): void {
    this.#tat = Math.max(this.#tat, until + this.#slack)
  }

  /** True when the bucket is full again (nothing to remember). */
  idle(now: number): boolean {
    return this.#tat <= now
  }
}
