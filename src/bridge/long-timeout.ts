/** setTimeout fires at once beyond this (a 32-bit signed delay). */
const MAX_DELAY_MS = 2 ** 31 - 1

/**
 * A timer for any delay (a question may expire in weeks), unref'd so it
 * never keeps a process alive by itself. Returns its cancel function.
 */
export function setLongTimeout(run: () => void, delayMs: number): () => void {
  let timer: NodeJS.Timeout
  const arm = (remaining: number) => {
    timer = setTimeout(() => (remaining > MAX_DELAY_MS ? arm(remaining - MAX_DELAY_MS) : run()), Math.min(Math.max(remaining, 0), MAX_DELAY_MS))
    timer.unref()
  }
  arm(delayMs)
  return () => clearTimeout(timer)
}
