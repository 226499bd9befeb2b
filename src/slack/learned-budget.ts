import type { RateRule } from './rate-rules.js'
import { TIMING } from './timing.js'

/** How the budget grows while callers wait for it (decision 0045). */
type Phase =
  /** No 429 lately: it doubles every TIMING.tier3ProbeDoublingMs. */
  | 'probe'
  /** After a 429 whose budget was guessed: it grows by TIMING.tier3RecoverGrowth every tier3ProbeDoublingMs. */
  | 'recover'
  /** After a 429 that measured the budget: it grows by TIMING.tier3RecoverGrowth a minute. */
  | 'steady'

/** The longest gap between two waits that still counts as one spell of demand. */
const SPELL_GAP_MS = 5_000
/**
 * The longest gap between two calls Slack took that still lets the calls
 * between two 429s measure its rate: its bucket, empty at the first 429,
 * refills that long without reaching the burst Slack's tiers allow (a
 * minute's worth), so every token it made was taken.
 */
const MEASURE_GAP_MS = 20_000
const MINUTE_MS = 60_000

export interface LearnedBudgetOptions {
  /** The documented budget: never paced below. */
  floor: RateRule
  /** False pins it to the floor (the pacer as it was before decision 0045; the bench's "before"). */
  learns: boolean
}

/**
 * What a per-method budget of Slack's allows, in calls a minute with a burst
 * of as many (as Slack describes its tiers), learned from Slack's own
 * answers. It starts at the documented figure and never goes below it. While
 * callers wait for it, it grows: a probe, since Slack documents Tier 3 as
 * "50+". A 429 sets it from what Slack took: between this 429 and the
 * previous one when calls kept going between them (Slack's bucket was
 * empty at both, so what it took between them is its rate), else half of
 * what it took in the trailing minute (a guess: a full burst may be in that
 * minute). Pure: the caller passes the time.
 */
export class LearnedBudget {
  readonly #floor: RateRule
  readonly #floorPerMinute: number
  readonly #ceilingPerMinute: number
  readonly #learns: boolean
  #perMinute: number
  #phase: Phase = 'probe'
  /** The last time callers waited (or a 429's pause ends); undefined: no spell of demand yet. */
  #pressedAt: number | undefined
  #limitedAt: number | undefined
  /** When Slack took each call lately, oldest first. */
  readonly #taken: number[] = []

  constructor(options: LearnedBudgetOptions) {
    this.#floor = options.floor
    this.#floorPerMinute = options.floor.perSecond * 60
    this.#ceilingPerMinute = this.#floorPerMinute * TIMING.tier3ProbeCeilingFactor
    // An unlimited floor has nothing to learn.
    this.#learns = options.learns && Number.isFinite(this.#floorPerMinute) && this.#floorPerMinute > 0
    this.#perMinute = this.#floorPerMinute
  }

  /** Calls a minute it allows now. */
  get perMinute(): number {
    return this.#perMinute
  }

  /** As a rule for a bucket: `perMinute` calls a minute, the floor's burst scaled alike (Slack's tiers: a minute's worth). */
  rule(): RateRule {
    if (this.#perMinute === this.#floorPerMinute) return this.#floor
    const scale = this.#perMinute / this.#floorPerMinute
    // A fractional burst is fine for a GCRA, and keeps a faster rule from ever allowing less than a slower one.
    return { perSecond: this.#floor.perSecond * scale, burst: this.#floor.burst * scale }
  }

  /**
   * Callers waited for the budget at `now`: they want more than it gives.
   * A learning budget grows with the time they have been waiting. Returns
   * whether it changed.
   */
  pressed(now: number): boolean {
    if (!this.#learns) return false
    if (this.#phase !== 'probe' && this.#limitedAt !== undefined && now - this.#limitedAt >= TIMING.tier3RelearnAfterMs) this.#phase = 'probe'
    const last = this.#pressedAt
    this.#pressedAt = Math.max(now, last ?? now)
    if (last === undefined || now <= last) return false
    if (now - last > SPELL_GAP_MS) return false
    const elapsed = now - last
    const factor =
      this.#phase === 'probe'
        ? 2 ** (elapsed / TIMING.tier3ProbeDoublingMs)
        : (1 + TIMING.tier3RecoverGrowth) ** (elapsed / (this.#phase === 'recover' ? TIMING.tier3ProbeDoublingMs : MINUTE_MS))
    const next = Math.min(this.#ceilingPerMinute, this.#perMinute * factor)
    const changed = next !== this.#perMinute
    this.#perMinute = next
    return changed
  }

  /** Slack took a call at `at` (it answered ok, or with any error but 429). */
  taken(at: number): void {
    if (!this.#learns) return
    this.#taken.push(at)
    const keepFrom = at - Math.max(MINUTE_MS, TIMING.tier3MeasureWindowMs)
    while (this.#taken.length > 0 && this.#taken[0]! < keepFrom) this.#taken.shift()
  }

  /**
   * Slack answered 429 at `at` to a call sent at `sentAt`, asking for a
   * pause of `pauseMs`. Calls sent before an earlier 429 was known teach
   * nothing new (the same overload). Returns whether this one taught it.
   */
  limited(sentAt: number, at: number, pauseMs: number): boolean {
    if (!this.#learns) return false
    const previous = this.#limitedAt
    if (previous !== undefined && sentAt < previous) return false
    let estimate: number
    if (previous !== undefined && at - previous <= TIMING.tier3MeasureWindowMs && this.#takenSteadily(previous, at)) {
      estimate = (this.#count(previous) / (at - previous)) * MINUTE_MS
      this.#phase = 'steady'
    } else {
      estimate = Math.min(this.#perMinute, this.#count(at - MINUTE_MS)) / 2
      this.#phase = 'recover'
    }
    this.#perMinute = this.#clamp(estimate)
    this.#limitedAt = at
    // The pause is no spell's gap: demand that waits it out is still the same spell.
    this.#pressedAt = at + pauseMs
    return true
  }

  /**
   * Another instance on the Slack app learned `perMinute` from a 429 (the
   * shared ledger said so at `now`): this one paces to it too, and grows
   * from it as after a guessed budget. Returns whether the budget changed.
   */
  adopt(perMinute: number, now: number): boolean {
    if (!this.#learns) return false
    const before = this.#perMinute
    this.#perMinute = this.#clamp(perMinute)
    this.#phase = 'recover'
    // Its 429s and this one's calls before them are the same overload.
    this.#limitedAt = now
    return this.#perMinute !== before
  }

  #clamp(perMinute: number): number {
    return Math.min(this.#ceilingPerMinute, Math.max(this.#floorPerMinute, perMinute))
  }

  /** Slack took calls from `from` to `to` with no gap longer than MEASURE_GAP_MS. */
  #takenSteadily(from: number, to: number): boolean {
    let last = from
    for (const at of this.#taken) {
      if (at <= from) continue
      if (at - last > MEASURE_GAP_MS) return false
      last = at
    }
    return last > from && to - last <= MEASURE_GAP_MS
  }

  #count(after: number): number {
    let count = 0
    for (let i = this.#taken.length - 1; i >= 0 && this.#taken[i]! > after; i--) count++
    return count
  }
}
