/** How reconnect delays grow. */
export interface BackoffPolicy {
  initialMs: number
  maxMs: number
}

/**
 * The wait before retry number `attempt` (0 for the first retry): doubling
 * from `initialMs`, capped at `maxMs`, with "equal jitter" — half fixed, half
 * random — so many relays restarting with one host spread out, yet no retry
 * ever comes sooner than half the nominal delay (no tight loop, whatever the
 * random numbers).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const nominal = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30))
  return Math.round(nominal / 2 + (nominal / 2) * random())
}

/** `1.5s`, `30s`, `250ms`: for "retrying in …" log lines. */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const seconds = ms / 1000
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}s`
}
