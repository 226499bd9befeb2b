/**
 * Slack's rate limits as token-bucket rules, derived from TIMING: the one
 * place both the bridge's pacer and the local stand-in's limiter read them,
 * so what we pace to and what the stand-in enforces cannot drift apart.
 */
import { TIMING } from './timing.js'

export interface RateRule {
  /** Calls allowed per second on average. */
  perSecond: number
  /** Calls allowed at once before the average applies. */
  burst: number
}

/** A Web API tier's rule: `calls` a minute, and bursts of as many ("sporadic bursts are welcome"). */
export function perMinute(calls: number, burst: number = calls): RateRule {
  return { perSecond: calls / 60, burst }
}

export const RATE_RULES = {
  /** chat.postMessage (and anything else that adds a message), per channel. */
  channelPost: { perSecond: TIMING.channelPostsPerSecond, burst: TIMING.channelPostBurst },
  /** chat.postMessage across every channel of the workspace. */
  workspacePost: perMinute(TIMING.workspacePostsPerMinute, TIMING.workspacePostBurst),
  /** Tier 3 methods (chat.update). */
  tier3: perMinute(TIMING.tier3CallsPerMinute),
  /** Tier 4 methods (chat.postEphemeral, views.open, users.info). */
  tier4: perMinute(TIMING.tier4CallsPerMinute),
} as const satisfies Record<string, RateRule>

/**
 * The earliest time (ms after the first) by which `count` posts to one
 * channel have all gone out under `rule`, when nothing else is posting there:
 * the burst at once, then one every 1/perSecond. Tests derive their waits from it.
 */
export function postScheduleMs(count: number, rule: RateRule = RATE_RULES.channelPost): number {
  return Math.max(0, count - rule.burst) * (1000 / rule.perSecond)
}
