import { describe, expect, it } from 'vitest'
import type { Sandbox } from '../../src/sandbox/index.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { startRig } from '../support/e2e.js'

const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** Resolves once the card of every ask shows an edit (its settled state). */
async function allCardsUpdated(slack: Sandbox, records: AskRecord[]): Promise<void> {
  for (const record of records) {
    const { channel, ts } = record.message!
    await slack.waitFor(() => slack.messages(channel).find((message) => message.ts === ts && message.edited) ?? undefined, { timeoutMs: 60_000 })
  }
}

/** `count` asks, one per channel (Slack's one post a second per channel stays out of the way). */
async function openAsks(rig: Awaited<ReturnType<typeof startRig>>, count: number): Promise<AskRecord[]> {
  const channels = Array.from({ length: count }, (_, i) => rig.slack.createChannel({ id: `C0LOAD${String(i).padStart(4, '0')}`, name: `load-${i}`, botIsMember: true }).id)
  return Promise.all(channels.map((channel) => rig.bridge.open({ questions: [pm] }, { channel })))
}

describe('card updates under load (decision 0045)', () => {
  it('holds a card whose update met a 429 for Retry-After, then updates it: the update is not lost', async () => {
    const rig = await startRig('socket')
    const record = await rig.bridge.open({ questions: [pm] })
    rig.slack.faults.inject('chat.update', { status: 429, retryAfter: 1 })

    await rig.slack.user('U0SANDBOX01').click(record.message!, 'npm')
    await allCardsUpdated(rig.slack, [record])

    expect(rig.slack.callCount('chat.update')).toBe(2)
  })

  it('updates every card of a burst of answers larger than the documented Tier 3, with a Slack that takes more, and meets no 429', async () => {
    const rig = await startRig('socket', {}, { tier3PerMinute: 120 })
    const asks = 70
    const records = await openAsks(rig, asks)

    for (const record of records) await rig.slack.user('U0SANDBOX01').click(record.message!, 'npm')
    await allCardsUpdated(rig.slack, records)

    // Beyond the documented 50 the pacer probed, within what this Slack takes: one call per card.
    expect(rig.slack.callCount('chat.update')).toBe(asks)
  }, 90_000)

  it('updates every card of such a burst when Slack takes only the documented 50 a minute: the 429s of its probes are waited out and retried', async () => {
    const rig = await startRig('socket')
    const asks = 56
    const records = await openAsks(rig, asks)

    for (const record of records) await rig.slack.user('U0SANDBOX01').click(record.message!, 'npm')
    await allCardsUpdated(rig.slack, records)

    expect(rig.slack.callCount('chat.update')).toBeGreaterThanOrEqual(asks)
    const edited = records.filter((record) => rig.slack.messages(record.message!.channel).some((message) => message.ts === record.message!.ts && message.edited))
    expect(edited).toHaveLength(asks)
  }, 90_000)
})
