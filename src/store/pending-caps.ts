import type { AskLimits } from '../policy/operator-policy.js'
import type { PendingCount } from './team-records.js'

/*
 * The operator's caps on pending asks (the policy's `limits`) are checked by
 * the store in the same statement that inserts an ask: each open ask holds
 * its body, and a flood of them (150 plans of 1 MiB) once took the service
 * past a gigabyte. Asks without an API key count only in `pending`.
 */

/** An insert refused because a cap was reached, with the counts that reached it. */
export class PendingCapReached extends Error {
  constructor(
    readonly count: PendingCount,
    readonly caps: AskLimits,
    /** The API key the ask was sent with, when it had one. */
    readonly key: string | undefined,
  ) {
    super(`${count.total} asks pending (cap ${caps.pending})${key === undefined ? '' : `, ${count.forKey} for key ${key} (cap ${caps.pendingPerKey})`}`)
    this.name = 'PendingCapReached'
  }

  /** Whether the cap that stopped the ask was its key's (else the total's). */
  get perKey(): boolean {
    return keyCapReached(this.count, this.caps, this.key)
  }
}

const keyCapReached = (count: PendingCount, caps: AskLimits, key: string | undefined) => key !== undefined && count.forKey >= caps.pendingPerKey

/** Whether one more ask sent with `key` would pass a cap, given what is pending now. */
export function capReached(count: PendingCount, caps: AskLimits, key: string | undefined): boolean {
  return count.total >= caps.pending || keyCapReached(count, caps, key)
}
