/**
 * The relay's clock and timers, as a port: tests drive reconnects and
 * backoff by hand instead of waiting for real time to pass.
 */
export interface Scheduler {
  /** Runs `task` after `ms`; the returned function cancels it. */
  after(ms: number, task: () => void): () => void
  now(): number
  /** A number in [0, 1): the backoff's jitter. */
  random(): number
}

export const systemScheduler: Scheduler = {
  after(ms, task) {
    const timer = setTimeout(task, ms)
    return () => clearTimeout(timer)
  },
  now: () => Date.now(),
  random: () => Math.random(),
}
