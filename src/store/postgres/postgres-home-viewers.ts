import type { HomeViewers } from '../home-viewers.js'
import { HOME_SQL } from './home-queries.js'

type Query = <Row extends Record<string, unknown>>(text: string, values: unknown[]) => Promise<{ rows: Row[] }>

/**
 * Who has the Home tab open, in a table every instance shares. Every ask
 * that opens or settles asks who has it open, so each instance keeps the
 * answer in memory: read once, then followed through the NOTIFY each
 * `seen` sends (`followed`), and read again after the listening
 * connection was lost (`forget`). The claims to publish a tab are always
 * taken in the table: they are what instances take turns by.
 */
export class PostgresHomeViewers implements HomeViewers {
  /** When each person opened their tab, as far as this instance has heard; undefined until read. */
  #openedAt: Map<string, number> | undefined
  /** The oldest `since` the map answers for: rows older than it were never read. */
  #readSince = Number.POSITIVE_INFINITY

  constructor(private readonly query: Query) {}

  async seen(user: string, at: number): Promise<void> {
    await this.query(HOME_SQL.seen, [user, at])
    this.#note(user, at)
  }

  async openSince(since: number): Promise<string[]> {
    if (!this.#openedAt || since < this.#readSince) {
      const rows = (await this.query<{ user_id: string; opened_at: string }>(HOME_SQL.openSince, [since])).rows
      this.#openedAt = new Map(rows.map((row) => [row.user_id, Number(row.opened_at)]))
      this.#readSince = since
    }
    const open: string[] = []
    for (const [user, openedAt] of this.#openedAt) {
      if (openedAt >= since) open.push(user)
      // Closed this long, it never counts again unless its owner opens it (and the NOTIFY says so).
      else this.#openedAt.delete(user)
    }
    return open.sort()
  }

  async claim(user: string, holder: string, now: number, until: number): Promise<boolean> {
    await this.query(HOME_SQL.ensure, [user])
    return (await this.query<{ held: boolean }>(HOME_SQL.claim, [user, holder, now, until])).rows[0]?.held === true
  }

  // No row: another holder took the claim after ours ran out, and publishes itself.
  async release(user: string, holder: string): Promise<boolean> {
    return (await this.query<{ released: boolean }>(HOME_SQL.release, [user, holder])).rows[0]?.released ?? true
  }

  /** Another instance's `seen`, heard as `<user> <openedAt>`. */
  followed(payload: string): void {
    const [user = '', at] = payload.split(' ')
    if (user !== '' && Number.isFinite(Number(at))) this.#note(user, Number(at))
  }

  /** The listening connection dropped: what was announced meanwhile is unknown, so read the table next time. */
  forget(): void {
    this.#openedAt = undefined
    this.#readSince = Number.POSITIVE_INFINITY
  }

  #note(user: string, at: number): void {
    if (!this.#openedAt) return
    this.#openedAt.set(user, Math.max(this.#openedAt.get(user) ?? 0, at))
  }
}
