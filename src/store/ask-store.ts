import type { AskRecord, PostedMessage, Settlement, SettleResult } from './ask-record.js'

/**
 * Where asks live while they are open. The one rule every implementation
 * keeps: `settle` is an atomic claim, so however many payloads race for one
 * ask (twenty people, a double tap, two processes on one app token), exactly
 * one settles it and everyone else learns who did.
 *
 * Async throughout so a networked store (Redis, for several instances
 * sharing one Slack app) can implement it: `settle` there is a Lua
 * compare-and-set, `watch` a pub/sub subscription.
 */
export interface AskStore {
  /** Adds a new pending ask. Fails if the id or the external key is taken. */
  insert(record: AskRecord): Promise<void>
  get(id: string): Promise<AskRecord | undefined>
  /** The ask created for a relayed request, if any. */
  findByExternalKey(key: string): Promise<AskRecord | undefined>
  /** Records where the ask's message was posted. */
  attachMessage(id: string, message: PostedMessage): Promise<void>
  /** Pending → settled, once. The loser gets the winner's record. */
  settle(id: string, settlement: Settlement): Promise<SettleResult>
  /** Marks that the message now shows the settlement. */
  markFinalMessageShown(id: string): Promise<void>
  /**
   * Calls `listener` once when the ask is settled, by this process or
   * another. Returns the unsubscribe function; the listener is dropped after
   * it fires, so nothing accumulates over thousands of asks.
   */
  watch(id: string, listener: (record: AskRecord) => void): () => void
  /** Every pending ask (for expiry timers and start-up recovery). */
  listPending(): Promise<AskRecord[]>
  /** Settled asks whose message does not show it yet (a failed update to retry). */
  listUnshownSettled(): Promise<AskRecord[]>
  close(): Promise<void>
}
