/**
 * The stand-in's sense of time: trigger_id expiry, rate limits, message ts and
 * request-signing timestamps all read it, so tests can move time instead of
 * sleeping (a trigger_id expires after 3 s; a test should not wait 3 s).
 */
export interface SandboxClock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number
}

export const systemClock: SandboxClock = { now: () => Date.now() }

/** A clock that runs with real time, shifted by whatever `advance` added: for tests. */
export class ShiftedClock implements SandboxClock {
  private offsetMs = 0

  now(): number {
    return Date.now() + this.offsetMs
  }

  /** Moves time forward (or back, with a negative number) by `ms`. */
  advance(ms: number): void {
    this.offsetMs += ms
  }
}
