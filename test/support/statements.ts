import type { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { SQL } from '../../src/store/postgres/queries.js'
import { TEAM_SQL } from '../../src/store/postgres/team-queries.js'

/**
 * Statements an instance runs on timers whatever the asks (the lease sweep,
 * the scheduler's claim, a library process's lease renewals): per second,
 * not per ask, so they are counted apart.
 */
const HOUSEKEEPING: ReadonlySet<string> = new Set([SQL.pending, SQL.pendingSummaries, SQL.renewLease, TEAM_SQL.claim])

/** What a set of PostgreSQL stores ran between `start` and `spent`, by statement text. */
export interface StatementTally {
  /** Statements run since the start by every store, housekeeping apart. */
  spent(): { perAsk: (asks: number) => number; housekeeping: number; breakdown: (asks: number) => string; times: (text: string) => number }
}

export function tallyStatements(stores: readonly PostgresAskStore[]): StatementTally {
  const before = stores.map((store) => new Map(store.statementCounts))
  return {
    spent() {
      const byText = new Map<string, number>()
      let housekeeping = 0
      stores.forEach((store, i) => {
        for (const [text, count] of store.statementCounts) {
          const delta = count - (before[i]!.get(text) ?? 0)
          if (delta <= 0) continue
          if (HOUSEKEEPING.has(text)) housekeeping += delta
          else byText.set(text, (byText.get(text) ?? 0) + delta)
        }
      })
      const total = [...byText.values()].reduce((sum, count) => sum + count, 0)
      return {
        perAsk: (asks) => total / asks,
        housekeeping,
        times: (text) => byText.get(text) ?? 0,
        breakdown: (asks) => [...byText].map(([text, count]) => `${(count / asks).toFixed(1)} × ${text.replace(/\s+/g, ' ').slice(0, 60)}`).join('\n'),
      }
    },
  }
}
