/**
 * Where the durable reference apps keep their asks: the writes the shared
 * peer bench's durable apps make (issue 52), and nothing else (no
 * validation, policy, caps, claims, audit rows, log or metrics). `durable`
 * keeps them in a SQLite file (sqlite-journal.ts, the peer bench's E), the
 * Redis-backed Chat SDK app through its state adapter's own Redis client
 * (`redisJournal` below, the peer bench's D). Every write is awaited before
 * the flow goes on.
 */
import type { RedisStateAdapter } from '@chat-adapter/state-redis'
import type { Question } from './bare-asks.js'

export interface Journal {
  /** The ask, pending, before its card is posted: a restart finds it. */
  opened(id: string, question: Question): Promise<void>
  /** Where its card is. */
  posted(id: string, channel: string, ts: string): Promise<void>
  /** The first answer and who gave it, in one atomic step, before anyone hears it; false when another came first. */
  settled(id: string, label: string, user: string): Promise<boolean>
}

/** The state adapter's key prefix: the ask records live beside its own keys. */
const KEY_PREFIX = 'chat-sdk'

/** Settles an ask once: the status check and the write are one atomic step in Redis. */
const SETTLE = `if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'answered', 'answer', ARGV[1], 'answeredBy', ARGV[2], 'answeredAt', ARGV[3])
return 1`

/**
 * The peer bench's D: each ask one Redis hash, written through the adapter's
 * own client (the Chat SDK itself stores nothing on this path): `HSET` before
 * the post, `HSET` after it, and the settle as one `EVALSHA`. Three commands.
 */
export async function redisJournal(state: RedisStateAdapter): Promise<Journal> {
  const client = state.getClient()
  const sha = await client.scriptLoad(SETTLE)
  const key = (id: string) => `${KEY_PREFIX}:ask:${id}`
  return {
    opened: async (id, question) => void (await client.hSet(key(id), { status: 'pending', question: JSON.stringify(question), createdAt: String(Date.now()) })),
    posted: async (id, channel, ts) => void (await client.hSet(key(id), { channel, ts })),
    settled: async (id, label, user) => Number(await client.evalSha(sha, { keys: [key(id)], arguments: [label, user, String(Date.now())] })) === 1,
  }
}
