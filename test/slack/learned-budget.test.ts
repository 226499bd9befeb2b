import { describe, expect, it } from 'vitest'
import { LearnedBudget } from '../../src/slack/learned-budget.js'
import { RATE_RULES } from '../../src/slack/rate-rules.js'
import { TIMING } from '../../src/slack/timing.js'

const documented = RATE_RULES.tier3.perSecond * 60

/** Callers waiting for the budget every `stepMs` from `from` to `to`. */
function pressFor(budget: LearnedBudget, from: number, to: number, stepMs = 1000): void {
  for (let at = from; at <= to; at += stepMs) budget.pressed(at)
}

describe('LearnedBudget', () => {
  it('starts at the documented Tier 3, a burst of as many', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })

    expect(budget.perMinute).toBe(documented)
    expect(budget.rule()).toEqual(RATE_RULES.tier3)
  })

  it('doubles every few seconds while callers wait and Slack has not said 429', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })

    pressFor(budget, 0, TIMING.tier3ProbeDoublingMs)

    expect(budget.perMinute).toBeCloseTo(2 * documented)
    expect(budget.rule().perSecond).toBeCloseTo((2 * documented) / 60)
    expect(budget.rule().burst).toBeCloseTo(2 * documented)
  })

  it('never probes beyond six times the documented figure', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })

    pressFor(budget, 0, 10 * TIMING.tier3ProbeDoublingMs)

    expect(budget.perMinute).toBe(documented * TIMING.tier3ProbeCeilingFactor)
  })

  it('does not grow across a gap in demand: each spell of waiting starts its own clock', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })

    budget.pressed(0)
    budget.pressed(60_000)

    expect(budget.perMinute).toBe(documented)
  })

  it('stays at the documented figure when pinned to it', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: false })

    pressFor(budget, 0, 60_000)
    budget.limited(0, 60_000, 1000)

    expect(budget.perMinute).toBe(documented)
  })

  it('guesses half of what Slack took in the trailing minute at a first 429', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })
    pressFor(budget, 0, 30_000)
    for (let i = 1; i <= 240; i++) budget.taken(i * 250)

    budget.limited(59_000, 60_000, 1000)

    expect(budget.perMinute).toBe(120)
  })

  it('never learns less than the documented figure', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })
    budget.taken(0)

    budget.limited(500, 1000, 2000)

    expect(budget.perMinute).toBe(documented)
  })

  it('measures the budget from what Slack took between two 429s of one spell of demand', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })
    budget.limited(0, 0, 1000)
    // Slack takes 2 a second from the end of the pause on, while callers keep waiting.
    for (let at = 1000; at < 31_000; at += 500) {
      budget.taken(at)
      budget.pressed(at)
    }

    budget.limited(30_900, 31_000, 1000)

    expect(budget.perMinute).toBeCloseTo((60 / 31_000) * 60_000)
  })

  it('guesses rather than measures when Slack took no call for a while between two 429s (its bucket may have filled)', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })
    budget.limited(0, 0, 1000)
    pressFor(budget, 1000, 60_000)
    for (let at = 1000; at < 10_000; at += 500) budget.taken(at)
    for (let at = 70_000; at < 100_000; at += 250) budget.taken(at)

    budget.limited(99_900, 100_000, 1000)

    // Measured, it would be 138 calls in 100 s (83 a minute); guessed, half the trailing minute's 120.
    expect(budget.perMinute).toBe(60)
  })

  it('learns nothing new from a 429 to a call sent before the previous 429 was known', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })
    for (let i = 0; i < 200; i++) budget.taken(i * 100)
    budget.limited(19_900, 20_000, 1000)
    const learned = budget.perMinute

    expect(budget.limited(19_950, 20_010, 1000)).toBe(false)
    expect(budget.perMinute).toBe(learned)
  })

  it('does not grow while a 429 is being waited out', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })
    budget.limited(0, 0, 30_000)

    pressFor(budget, 0, 29_000)

    expect(budget.perMinute).toBe(documented)
  })

  it('paces to what another instance learned, and grows from there as after a 429 of its own', () => {
    const budget = new LearnedBudget({ floor: RATE_RULES.tier3, learns: true })

    expect(budget.adopt(130, 0)).toBe(true)
    pressFor(budget, 1000, 1000 + TIMING.tier3ProbeDoublingMs)

    expect(budget.perMinute).toBeCloseTo(130 * (1 + TIMING.tier3RecoverGrowth))
  })
})
