/**
 * Identifiers shaped like Slack's: `C0…` channels, `D0…` DMs, `V0…` views,
 * `F0…` files, message timestamps `1700000000.000100`, trigger ids
 * `1234.5678.abcdef…`. Counters keep them unique within one stand-in.
 */
import { randomBytes } from 'node:crypto'

import type { SandboxClock } from './clock.js'

/** The counters behind the ids, saved with a kept workspace. */
export interface IdState {
  counter: number
  /** The last message ts handed out, in microseconds. */
  lastTs: number
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

export class IdSource {
  private counter = 0
  private lastTs = 0

  constructor(private readonly clock: SandboxClock) {}

  /** What keeps ids unique across a restart of a stand-in that kept its workspace. */
  get state(): IdState {
    return { counter: this.counter, lastTs: this.lastTs }
  }

  /** Continues after a saved state: new ids never repeat one the saved workspace holds. */
  restore(state: IdState): void {
    this.counter = Math.max(this.counter, state.counter)
    this.lastTs = Math.max(this.lastTs, state.lastTs)
  }

  /** `prefix` + `0` + a counter, upper-case base 36: `V0000000A1`. */
  next(prefix: string): string {
    this.counter += 1
    return `${prefix}0${this.counter.toString(36).toUpperCase().padStart(8, '0')}`
  }

  /** A message ts: seconds.microseconds, strictly increasing like Slack's within a channel. */
  ts(): string {
    const micros = Math.max(this.clock.now() * 1000, this.lastTs + 1)
    this.lastTs = micros
    return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`
  }

  /** A trigger id: `<counter>.<team number>.<hex>`, as in Slack's payloads. */
  trigger(): string {
    this.counter += 1
    return `${this.counter}.${Math.floor(this.clock.now() / 1000)}.${randomBytes(16).toString('hex')}`
  }

  /** The id Slack gives a block or element sent without one: five random characters. */
  short(): string {
    return Array.from(randomBytes(5), (byte) => ALPHABET[byte % ALPHABET.length]).join('')
  }

  /** An opaque secret-looking value: envelope ids, tickets, view hashes. */
  opaque(): string {
    return randomBytes(12).toString('hex')
  }
}
