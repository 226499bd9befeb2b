import pg from 'pg'
import { HOME_CHANNEL, INSERTED_CHANNEL, SETTLED_CHANNEL } from './queries.js'

/** How long to wait before listening again after the connection dropped. */
export const RECONNECT_DELAY_MS = 500

export interface SettleListenerOptions {
  connectionString: string
  /** Each NOTIFY payload on the settlements channel. */
  onSettled: (payload: string) => void
  /** Each NOTIFY payload on the new-asks channel. */
  onInserted: (payload: string) => void
  /** Each NOTIFY payload on the Home tab openings channel. */
  onHomeSeen: (payload: string) => void
  /**
   * After listening again following a dropped connection: settlements
   * announced meanwhile were missed, so the store re-reads what it waits for.
   * `attempts`: connections tried since it was lost; `downMs`: how long it was.
   */
  onResumed: (outage: { attempts: number; downMs: number }) => void
  /** The connection dropped (once per outage: the attempts to listen again are counted, not reported one by one). */
  onLost: (error: Error | undefined) => void
}

/**
 * One dedicated connection per store that LISTENs for settlements (and
 * new asks), so a
 * process waiting on an ask hears about a click another instance handled
 * as soon as that instance commits (no polling). A pooled connection cannot
 * do this: LISTEN belongs to a session, and the pool hands sessions around.
 */
export class SettleListener {
  #client: pg.Client | undefined
  #closed = false
  #retry: NodeJS.Timeout | undefined
  /** The outage in progress: when it began and the connections tried since. */
  #outage: { since: number; attempts: number } | undefined

  constructor(private readonly options: SettleListenerOptions) {}

  /** Whether the LISTEN connection is up now. */
  get listening(): boolean {
    return this.#client !== undefined
  }

  /** Resolves once listening; rejects if the first connection fails. */
  async start(): Promise<void> {
    await this.#connect()
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString })
    client.on('notification', (message) => {
      if (message.payload === undefined) return
      if (message.channel === SETTLED_CHANNEL) this.options.onSettled(message.payload)
      else if (message.channel === INSERTED_CHANNEL) this.options.onInserted(message.payload)
      else if (message.channel === HOME_CHANNEL) this.options.onHomeSeen(message.payload)
    })
    client.on('error', (error) => this.#lost(client, error))
    client.on('end', () => this.#lost(client))
    await client.connect()
    await client.query(`LISTEN ${SETTLED_CHANNEL}; LISTEN ${INSERTED_CHANNEL}; LISTEN ${HOME_CHANNEL}`)
    if (this.#closed) {
      await client.end().catch(() => undefined)
      return
    }
    this.#client = client
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#closed || this.#client !== client) return
    this.#client = undefined
    this.#outage = { since: Date.now(), attempts: 0 }
    this.options.onLost(error)
    client.end().catch(() => undefined)
    this.#scheduleReconnect()
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return
    this.#retry = setTimeout(() => {
      this.#retry = undefined
      if (this.#outage) this.#outage.attempts++
      this.#connect().then(
        () => {
          const outage = this.#outage
          this.#outage = undefined
          this.options.onResumed({ attempts: outage?.attempts ?? 1, downMs: outage ? Date.now() - outage.since : 0 })
        },
        () => this.#scheduleReconnect(),
      )
    }, RECONNECT_DELAY_MS)
    this.#retry.unref()
  }

  async close(): Promise<void> {
    this.#closed = true
    if (this.#retry) clearTimeout(this.#retry)
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => undefined)
  }
}
