import type { Logger } from './logger.js'

/** How often one kind of refusal may write a line: enough to see an attack start, never a flood. */
export const REFUSAL_LOG_INTERVAL_MS = 10_000

/**
 * Logs refusals (a wrong key, a request the policy forbids, a click by
 * someone not allowed) at most once per kind per interval; the next line
 * says how many were not logged in between. An attacker sending thousands
 * of bad requests gets the metric counted and a few lines, not a log flood.
 */
export function refusalLog(logger: Logger, now: () => number = Date.now, intervalMs = REFUSAL_LOG_INTERVAL_MS): (kind: string, line: string) => void {
  const last = new Map<string, { at: number; unlogged: number }>()
  return (kind, line) => {
    const seen = last.get(kind)
    if (seen && now() - seen.at < intervalMs) {
      seen.unlogged++
      return
    }
    const unlogged = seen?.unlogged ?? 0
    last.set(kind, { at: now(), unlogged: 0 })
    logger.warn(`refused: ${line}${unlogged > 0 ? ` (and ${unlogged} more refusal(s) of this kind not logged since the last line)` : ''}`)
  }
}
