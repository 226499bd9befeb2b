import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RATE_RULES } from '../../src/slack/rate-rules.js'
import { startRig } from '../support/e2e.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'

const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db?.drop()
})

describe('two instances on one Slack app sharing PostgreSQL', () => {
  it('stay within Slack’s chat.update limit together, so answering takes no more Slack calls than with one instance', async () => {
    // Pinned to the documented Tier 3, which is all this stand-in takes: probing beyond it (decision 0045) meets 429s on purpose.
    const { slack, bridge: asker, restartBridge } = await startRig('socket', { state: db.url, updateBudget: 'documented' })
    await restartBridge()
    await slack.waitFor(() => slack.socketConnections() === 2 || undefined)
    // A few more answers than Tier 3's burst: together the two instances must pace the rest.
    const asks = RATE_RULES.tier3.burst + 4
    const channels = Array.from({ length: asks }, (_, i) => slack.createChannel({ id: `C0RATE${String(i).padStart(4, '0')}`, name: `rate-${i}`, botIsMember: true }).id)
    const opened = await Promise.all(channels.map((channel) => asker.open({ questions: [pm] }, { channel })))

    // The stand-in hands the clicks to the two connections in turn, so each instance updates half the messages.
    for (const record of opened) await slack.user('U0SANDBOX01').click(record.message!, 'npm')
    for (const record of opened) {
      await slack.waitFor(() => slack.messages(record.message!.channel).find((message) => message.ts === record.message!.ts && message.edited) ?? undefined, { timeoutMs: 30_000 })
    }

    expect(slack.callCount('chat.update')).toBe(asks)
  }, 60_000)
})
