import type { AskRecord } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { NewAskEvent } from '../store/team-records.js'

/** How many asks' rule and key are remembered for their events. */
const ORIGINS_KEPT = 10_000

/** The operator's rule an ask fell under and the API key that sent it, as its audit events name them. */
export type AskOrigin = { rule?: string; key?: string }

export function originOf(record: AskRecord | undefined): AskOrigin {
  return { ...(record?.rule !== undefined ? { rule: record.rule } : {}), ...(record?.apiKey !== undefined ? { key: record.apiKey } : {}) }
}

/**
 * Every audit event names the rule the ask fell under and the key that sent
 * it. Asks opened here are remembered (a bounded map); another instance's
 * ask is read from the store once.
 */
export class AuditOrigins {
  readonly #origins = new Map<string, AskOrigin>()

  constructor(private readonly store: AskStore) {}

  /** An ask opened here: its events need no read. */
  remember(record: AskRecord): void {
    this.#keep(record.id, originOf(record))
  }

  /** Appends the event with its ask's origin. */
  async append(event: NewAskEvent): Promise<void> {
    // No extra turn when the origin is known: events keep their place relative to message updates.
    const known = event.rule !== undefined ? event : this.#withKnownOrigin(event)
    await this.store.appendEvent(known ?? (await this.#withOrigin(event)))
  }

  #withKnownOrigin(event: NewAskEvent): NewAskEvent | undefined {
    const origin = this.#origins.get(event.askId)
    return origin ? { ...event, ...origin } : undefined
  }

  async #withOrigin(event: NewAskEvent): Promise<NewAskEvent> {
    const record = await this.store.get(event.askId).catch(() => undefined)
    const origin = originOf(record)
    if (record) this.#keep(event.askId, origin)
    return { ...event, ...origin }
  }

  #keep(id: string, origin: AskOrigin): void {
    if (this.#origins.size >= ORIGINS_KEPT) this.#origins.delete(this.#origins.keys().next().value!)
    this.#origins.set(id, origin)
  }
}
