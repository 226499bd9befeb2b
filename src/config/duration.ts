/**
 * Durations as people write them in configuration: `90s`, `30m`, `2h`, `1d`,
 * `500ms`, or a combination such as `1h30m`. A bare number means seconds.
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y

/** Milliseconds, or `null` when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const source = text.trim()
  if (source === '') return null
  if (/^\d+(\.\d+)?$/.test(source)) return Math.round(Number(source) * 1000)
  let total = 0
  PART.lastIndex = 0
  while (PART.lastIndex < source.length) {
    const start = PART.lastIndex
    const match = PART.exec(source)
    if (!match || match.index !== start) return null
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]
  }
  return Math.round(total)
}

/** The shortest readable form: 90000 → `1m30s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const parts: string[] = []
  let rest = Math.round(ms / 1000)
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]] as const) {
    const count = Math.floor(rest / size)
    if (count > 0) parts.push(`${count}${unit}`)
    rest -= count * size
  }
  return parts.join('')
}

/**
 * The longest expiry a question may have. Far-off deadlines are not useful
 * (nobody answers a question a year later) and past ~8.6e15 ms the expiry
 * date cannot be shown at all, so anything longer is refused where it
 * arrives instead of failing later as a confusing Slack error.
 */
export const MAX_TIMEOUT_MS = 30 * 86_400_000

/** The problem with an expiry in milliseconds, or null when it is usable. */
export function timeoutProblem(ms: number): string | null {
  if (!Number.isFinite(ms) || ms <= 0) return 'must be a positive duration'
  if (ms > MAX_TIMEOUT_MS) return `must be at most 30 days (${MAX_TIMEOUT_MS} ms)`
  return null
}
