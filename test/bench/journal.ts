/**
 * Where the durable reference apps keep their asks: the writes any app
 * making dsh-slack's promises about an ask needs, and nothing else (no
 * validation, policy, caps, claims, log or metrics). `durable` keeps them
 * in a SQLite file (sqlite-journal.ts), the Chat SDK apps in the Chat SDK's
 * own state adapter (memory or Redis, `stateJournal` below).
 */
import type { StateAdapter } from 'chat'

export interface Journal {
  /** The ask, before its message is posted: a restart finds it. */
  asked(id: string, channel: string): Promise<void>
  /** Where its message is: a click on another process finds the card. */
  posted(id: string, ts: string): Promise<void>
  /** The first answer and who gave it, durably, before anyone hears it; false when another came first. */
  settled(id: string, answer: string, by: string): Promise<boolean>
  /** The card shows the answer: a restart does not update it again. */
  shown(id: string): Promise<void>
}

/**
 * The same four writes in a Chat SDK state adapter, as a Chat SDK app keeps
 * its own records: the ask as one value, the first answer won with
 * `setIfNotExists` (atomic in Redis: one instance wins), and the shown mark.
 */
export function stateJournal(state: StateAdapter): Journal {
  const key = (id: string, part: string) => `dsh-bench:ask:${id}:${part}`
  return {
    asked: (id, channel) => state.set(key(id, 'ask'), { channel }),
    posted: (id, ts) => state.set(key(id, 'message'), { ts }),
    settled: (id, answer, by) => state.setIfNotExists(key(id, 'answer'), { answer, by, at: Date.now() }),
    shown: (id) => state.set(key(id, 'shown'), true),
  }
}
