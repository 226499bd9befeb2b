import type { Logger } from '../log/logger.js'
import type { AskRecord } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import { isProcessAlive } from './process-alive.js'

export interface ProcessLeaseOptions {
  store: AskStore
  /** This process's id in the store. */
  instance: string
  /** How far ahead the lease runs; renewed at a third of it. */
  leaseMs: number
  now: () => number
  logger: Logger
}

/** How many other processes' leases are remembered. */
const LEASES_REMEMBERED = 1_000

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * A library process's asks live as long as it does. It says so by renewing
 * a lease in the store, which any process on any machine can read (a
 * process id cannot be checked from another host).
 */
export class ProcessLease {
  #held: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined
  /**
   * Other processes' leases as last read: a lease only ever runs further
   * ahead while its process lives, so until the time read its process is
   * known to be alive, and a click on its ask needs no read of the store.
   */
  readonly #aliveUntil = new Map<string, number>()

  constructor(private readonly options: ProcessLeaseOptions) {}

  /** Takes the lease (once) and keeps renewing it until `end()`. */
  hold(): Promise<void> {
    if (this.#held) return this.#held
    const { store, instance, leaseMs, now, logger } = this.options
    const renew = () => store.renewLease(instance, now() + leaseMs)
    this.#held = renew()
    this.#timer = setInterval(() => {
      renew().catch((error: unknown) => logger.warn(`could not renew this process's lease in the store: ${reasonOf(error)}`))
    }, leaseMs / 3)
    this.#timer.unref()
    this.#held.catch(() => (this.#held = undefined))
    return this.#held
  }

  /** Stops renewing; `release`: also says in the store that this process is gone (its asks were withdrawn). */
  async end(release: boolean): Promise<void> {
    clearInterval(this.#timer)
    if (!this.#held || !release) return
    await this.options.store.endLease(this.options.instance).catch((error: unknown) => {
      this.options.logger.warn(`could not end this process's lease: ${reasonOf(error)}`)
    })
  }

  #rememberAlive(instance: string, until: number): void {
    // Bounded: the oldest reading goes first (a new process's lease is read again when needed).
    if (this.#aliveUntil.size >= LEASES_REMEMBERED) this.#aliveUntil.delete(this.#aliveUntil.keys().next().value!)
    this.#aliveUntil.delete(instance)
    this.#aliveUntil.set(instance, until)
  }

  /** Whether another library process waits for `record` (only then can its owner be gone). */
  ownedElsewhere(record: Pick<AskRecord, 'owner'>): boolean {
    return record.owner.kind === 'library' && record.owner.instance !== this.options.instance
  }

  /** Whether the library process that waits for `record` is gone (its `ask()` died with it). */
  async ownerGone(record: Pick<AskRecord, 'owner'>): Promise<boolean> {
    const { store, now } = this.options
    if (!this.ownedElsewhere(record) || record.owner.kind !== 'library') return false
    // On a local store every process is on this machine: a dead process is
    // gone at once (killed with SIGKILL, its lease is still running).
    if (!store.shared && !isProcessAlive(record.owner.pid)) return true
    const instance = record.owner.instance
    if ((this.#aliveUntil.get(instance) ?? -Infinity) >= now()) return false
    const lease = await store.leaseUntil(instance)
    if (lease !== undefined && lease >= now()) this.#rememberAlive(instance, lease)
    if (lease !== undefined) return lease < now()
    // No lease: the process ended it when it stopped, or the ask predates leases.
    return store.shared === true
  }
}
