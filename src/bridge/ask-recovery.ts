import type { Logger } from '../log/logger.js'
import { TIMING } from '../slack/timing.js'
import type { AskRecord } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { AskOutbox } from './ask-outbox.js'
import type { ProcessLease } from './process-lease.js'

export interface AskRecoveryOptions {
  store: AskStore
  owner: 'service' | 'library'
  lease: ProcessLease
  leaseMs: number
  outbox: AskOutbox
  logger: Logger
  /** Expires an ask whose library process is gone. */
  expire: (id: string) => Promise<unknown>
  /** Arms an ask's expiry timer here. */
  armExpiry: (record: Pick<AskRecord, 'id' | 'expiresAt'>) => void
  now: () => number
  /** Shows a settled ask's settlement on its card again (a failed update). */
  showSettled: (record: AskRecord) => Promise<unknown>
  stopped: () => boolean
}

/**
 * What an instance picks up that others left: at start and then every few
 * seconds, asks of a library process that is gone are expired (their
 * `ask()` died with it), every other ask gets its expiry timer here once it
 * is due within TIMING.expiryArmAheadMs, and an ask recorded but never
 * posted is posted once its poster's claim runs out; at start, settled asks
 * whose card update failed are shown again. The store finds those asks by
 * index (listSweepable): a sweep costs the same however many asks wait for
 * nothing but an answer (decision 0104).
 */
export class AskRecovery {
  #timer: NodeJS.Timeout | undefined

  constructor(private readonly options: AskRecoveryOptions) {}

  async recover(): Promise<void> {
    const { store, logger } = this.options
    await this.#sweep()
    for (const record of await store.listUnshownSettled()) {
      if (record.settlement) await this.options.showSettled(record)
    }
    // Repeated, not only at start: a library process killed a moment ago
    // still has a running lease, and its asks must expire once it lapses.
    if (!this.options.stopped() && !this.#timer) {
      this.#timer = setInterval(() => {
        this.#sweep().catch((error: unknown) => logger.warn(`could not check for asks whose process is gone: ${error instanceof Error ? error.message : String(error)}`))
      }, Math.min(TIMING.leaseSweepMs, this.options.leaseMs / 3))
      this.#timer.unref()
    }
  }

  async #sweep(): Promise<void> {
    const { store, owner, lease, outbox } = this.options
    const now = this.options.now()
    const armBy = now + TIMING.expiryArmAheadMs
    // Every few seconds, only the asks there may be something to do for: their summaries, not their records.
    for (const summary of await store.listSweepable(now, armBy)) {
      if (await lease.ownerGone(summary)) await this.options.expire(summary.id)
      // On a local store a library process leaves a service's asks to the service.
      else if (store.shared || (summary.owner.kind === 'service' && owner === 'service')) {
        if (summary.expiresAt !== undefined && summary.expiresAt <= armBy) this.options.armExpiry(summary)
        // Recorded, never posted, and not being posted here: its poster may have died mid-post (the one record read).
        if (!summary.message) {
          const record = await store.get(summary.id)
          if (record) await outbox.takeOver(record)
        }
      }
    }
  }

  stop(): void {
    clearInterval(this.#timer)
  }
}
