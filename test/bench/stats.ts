/** Percentiles and figures for the benchmark report. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`
}

export function summary(samples: readonly number[]): string {
  return `p50 ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))} (n=${samples.length})`
}

/** A monotonic reading in ms, for `since`. */
export const now = () => performance.now()

/** Milliseconds since `start` (a `performance.now()` reading). */
export function since(start: number): number {
  return performance.now() - start
}

/** `text` padded with spaces to `width`, for the report's columns. */
export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length)
}
