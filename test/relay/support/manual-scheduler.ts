import type { Scheduler } from '../../../src/relay/scheduler.js'

/**
 * Timers that fire only when the test says so: backoff is asserted on the
 * delays asked for, never on elapsed time.
 */
export function manualScheduler(random = 0.5) {
  const timers: { ms: number; task: () => void; done: boolean }[] = []
  let now = 1_000_000
  const scheduler: Scheduler & {
    /** Delays asked for, in order, including fired and cancelled ones. */
    readonly delays: number[]
    /** Timers not yet fired or cancelled. */
    pending(): number
    /** Fires the oldest pending timer, advancing the clock by its delay. */
    fireNext(): void
  } = {
    after(ms, task) {
      const timer = { ms, task, done: false }
      timers.push(timer)
      return () => {
        timer.done = true
      }
    },
    now: () => now,
    random: () => random,
    get delays() {
      return timers.map((timer) => timer.ms)
    },
    pending: () => timers.filter((timer) => !timer.done).length,
    fireNext() {
      const timer = timers.find((candidate) => !candidate.done)
      if (!timer) throw new Error('no pending timer')
      timer.done = true
      now += timer.ms
      timer.task()
    },
  }
  return scheduler
}
