import type { Logger } from '../log/logger.js'
import { isStoreUnavailable } from '../store/store-unavailable.js'
import type { NewAskEvent } from '../store/team-records.js'
import { TIMING } from '../slack/timing.js'

/** Events kept at most while the store is away (a few hundred bytes each); past this the oldest go, counted. */
export const LATE_EVENTS_KEPT = 10_000

/** How long stop() gives the waiting events their last try. */
export const STOP_FLUSH_MS = 2_000

export interface LateEventsOptions {
  /** Appends one event to the store (rejects while it is unreachable). */
  append: (event: NewAskEvent) => Promise<unknown>
  logger: Logger
  retryFirstMs?: number
  retryMaxMs?: number
}

/**
 * Audit events the store could not take because it was unreachable (a
 * reminder, an escalation, an approval's count, a failed card update),
 * kept in the order they happened and appended once the store is back.
 * Each keeps its own time (`at`), so a late event still says when it
 * happened; only its place in the trail (`seq`) is later. An event the
 * store refuses for any other reason is not retried: it is logged, as
 * before, since trying again would fail the same way.
 */
export class LateEvents {
  readonly #kept: NewAskEvent[] = []
  /** Kept events appended since the outage began, and kept ones dropped past the bound: for the line when it ends. */
  #recorded = 0
  #dropped = 0
  #timer: NodeJS.Timeout | undefined
  #delayMs: number
  #flushing: Promise<void> | undefined
  #stopped = false

  constructor(private readonly options: LateEventsOptions) {
    this.#delayMs = this.#firstDelayMs
  }

  /** Events waiting for the store. */
  get size(): number {
    return this.#kept.length
  }

  /**
   * Records `event` now, or after the events still waiting, so the trail
   * keeps their order. Never throws: the ask's life goes on without its event.
   */
  async record(event: NewAskEvent): Promise<void> {
    if (this.#kept.length > 0) {
      this.#keep(event)
      return this.#flush()
    }
    try {
      await this.options.append(event)
    } catch (error) {
      if (!isStoreUnavailable(error) || this.#stopped) return this.#lost(event, error)
      this.options.logger.warn(`the store is unreachable: the audit trail's events are kept here and recorded once it is back (the first: ask ${event.askId}'s ${event.type}, ${reasonOf(error)})`)
      this.#keep(event)
      this.#schedule()
    }
  }

  /** Appends the waiting events in order, up to the first the store cannot take yet (one run at a time). */
  #flush(): Promise<void> {
    this.#flushing ??= this.#flushNow().finally(() => (this.#flushing = undefined))
    return this.#flushing
  }

  /**
   * One last try, for at most `STOP_FLUSH_MS` (a store that hangs rather
   * than refuses must not hold the stop), then whatever is still waiting
   * is given up and named in the log.
   */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    this.#timer = undefined
    let giveUp: NodeJS.Timeout | undefined
    await Promise.race([this.#flush(), new Promise<void>((resolve) => (giveUp = setTimeout(resolve, STOP_FLUSH_MS)))])
    clearTimeout(giveUp)
    if (this.#kept.length > 0) {
      this.options.logger.error(`stopping with ${auditEvents(this.#kept.length)} the store never took (asks ${[...new Set(this.#kept.map((event) => event.askId))].slice(0, 5).join(', ')}${this.#kept.length > 5 ? ', …' : ''}): ${this.#kept.length === 1 ? 'it is' : 'they are'} not in the trail`)
      this.#kept.length = 0
    }
  }

  async #flushNow(): Promise<void> {
    while (this.#kept.length > 0) {
      const event = this.#kept[0]!
      try {
        await this.options.append(event)
        this.#recorded++
      } catch (error) {
        if (isStoreUnavailable(error)) {
          if (!this.#stopped) this.#schedule()
          return
        }
        this.#lost(event, error)
      }
      this.#kept.shift()
    }
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#delayMs = this.#firstDelayMs
    if (this.#recorded > 0 || this.#dropped > 0) {
      const dropped = this.#dropped === 1 ? '1 older one was dropped' : `${this.#dropped} older ones were dropped`
      this.options.logger.info(`the store is back: ${auditEvents(this.#recorded)} kept meanwhile ${this.#recorded === 1 ? 'is' : 'are'} recorded${this.#dropped > 0 ? `; ${dropped} (more than ${LATE_EVENTS_KEPT} waited)` : ''}`)
      this.#recorded = 0
      this.#dropped = 0
    }
  }

  #keep(event: NewAskEvent): void {
    if (this.#kept.length >= LATE_EVENTS_KEPT) {
      this.#kept.shift()
      this.#dropped++
    }
    this.#kept.push(event)
  }

  #schedule(): void {
    if (this.#timer !== undefined) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      void this.#flush()
    }, this.#delayMs)
    this.#timer.unref()
    this.#delayMs = Math.min(this.#delayMs * 2, this.options.retryMaxMs ?? TIMING.lateEventRetryMaxMs)
  }

  get #firstDelayMs(): number {
    return this.options.retryFirstMs ?? TIMING.lateEventRetryFirstMs
  }

  #lost(event: NewAskEvent, error: unknown): void {
    this.options.logger.error(`ask ${event.askId}: could not record its ${event.type} event: ${reasonOf(error)}`)
  }
}

function auditEvents(count: number): string {
  return count === 1 ? '1 audit event' : `${count} audit events`
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
