import { afterEach, describe, expect, it, vi } from 'vitest'
import { AnswerPolicy } from '../../src/bridge/answer-policy.js'
import { HomeTab } from '../../src/bridge/home-tab.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import { silentLogger } from '../../src/log/logger.js'
import { SlackCallError } from '../../src/slack/slack-call-error.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { MemoryHomeViewers } from '../../src/store/home-viewers.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'

const NOW = Date.UTC(2026, 6, 1, 12)

function record(id: string, channel: string, overrides: Partial<AskRecord> = {}): AskRecord {
  return {
    id,
    kind: 'question',
    questions: [{ id: 'q', question: `Question ${id}?`, options: [{ label: 'a' }, { label: 'b' }], multiSelect: false }],
    target: channel,
    status: 'pending',
    createdAt: NOW,
    owner: { kind: 'service' },
    message: { channel, ts: '1.0001' },
    ...overrides,
  } as AskRecord
}

const tabs: HomeTab[] = []

afterEach(async () => {
  for (const tab of tabs.splice(0)) await tab.stop()
  vi.useRealTimers()
})

async function setup(options: { allowedUsers?: string[]; store?: MemoryAskStore; now?: () => number; instance?: string } = {}) {
  const store = options.store ?? new MemoryAskStore()
  const slack = new FakeSlackPort()
  const tab = new HomeTab({ store, slack, pacer: new ChannelPacer(), policy: new AnswerPolicy(slack, options, silentLogger), settings: { locale: 'en' }, logger: silentLogger, now: options.now ?? (() => NOW), instance: options.instance ?? 'test' })
  tabs.push(tab)
  const published = (user: string) => slack.homes.filter((home) => home.user === user)
  const text = (user: string) => JSON.stringify(published(user).at(-1)?.view.blocks ?? [])
  return { store, slack, tab, published, text }
}

/** views.publish answers 429 (Retry-After 1 s) once, after `meanwhile` has run; later calls go through. Returns how many it refused. */
function refuseFirstPublish(slack: FakeSlackPort, meanwhile: () => Promise<void> = async () => {}): () => number {
  const publish = slack.publishHome.bind(slack)
  let refusals = 0
  slack.publishHome = async (user, view) => {
    if (refusals > 0) return publish(user, view)
    refusals++
    await meanwhile()
    throw new SlackCallError('views.publish', 'ratelimited', 'retry after 1s', { retryAfterSeconds: 1 })
  }
  return () => refusals
}

describe('HomeTab', () => {
  it('publishes once for several refreshes asked for at once', async () => {
    const { slack, tab, published } = await setup()

    await tab.opened('U0ALICE')
    tab.refresh('U0ALICE')
    tab.refresh('U0ALICE')
    await vi.waitFor(() => expect(published('U0ALICE')).toHaveLength(1))
    await new Promise((resolve) => setTimeout(resolve, 400))

    expect(slack.homes).toHaveLength(1)
  })

  it('shows an ask that anyone may answer only to the members of its channel', async () => {
    const { store, slack, tab, text } = await setup()
    slack.members.set('G0PRIVATE', ['U0ALICE'])
    await store.insert(record('secret', 'G0PRIVATE'))

    await tab.opened('U0ALICE')
    await tab.opened('U0BOB')
    await vi.waitFor(() => expect(text('U0BOB')).not.toBe('[]'))
    await vi.waitFor(() => expect(text('U0ALICE')).toContain('Question secret?'))

    expect(text('U0BOB')).toContain('Nothing is waiting')
  })

  it('keeps a private channel\'s ask off the tab of an allowed user who is not in the channel', async () => {
    const { store, slack, tab, text } = await setup({ allowedUsers: ['U0ALICE', 'U0BOB'] })
    slack.members.set('G0PRIVATE', ['U0ALICE'])
    await store.insert(record('secret', 'G0PRIVATE'))

    await tab.opened('U0ALICE')
    await tab.opened('U0BOB')
    await vi.waitFor(() => expect(text('U0ALICE')).toContain('Question secret?'))
    await vi.waitFor(() => expect(text('U0BOB')).not.toBe('[]'))

    expect(text('U0BOB')).toContain('Nothing is waiting')
  })

  it('shows an ask in a DM only to its person, even to a named allowed user', async () => {
    const { store, slack, tab, text } = await setup({ allowedUsers: ['U0ALICE', 'U0BOB'] })
    slack.members.set('D0BOB', ['U0BOB', 'U0BOT'])
    await store.insert(record('dm', 'D0BOB'))

    await tab.opened('U0ALICE')
    await tab.opened('U0BOB')
    await vi.waitFor(() => expect(text('U0BOB')).toContain('Question dm?'))
    await vi.waitFor(() => expect(text('U0ALICE')).toContain('Nothing is waiting'))
  })

  it('refreshes only the open tabs that list the ask', async () => {
    const { store, slack, tab, published } = await setup({ allowedUsers: ['U0ALICE'] })
    slack.members.set('C0AGENTS', ['U0ALICE', 'U0BOB'])
    await tab.opened('U0ALICE')
    await tab.opened('U0BOB')
    await vi.waitFor(() => expect(slack.homes).toHaveLength(2))
    const ask = record('new', 'C0AGENTS')
    await store.insert(ask)

    await tab.refreshFor(ask)
    await vi.waitFor(() => expect(published('U0ALICE')).toHaveLength(2))

    expect(published('U0BOB')).toHaveLength(1)
  })

  it('draws the tab when Slack lets the publish through: an ask opened during a Retry-After is on it', async () => {
    const { store, slack, tab, published, text } = await setup({ allowedUsers: ['U0ALICE'] })
    slack.members.set('C0AGENTS', ['U0ALICE'])
    await store.insert(record('first', 'C0AGENTS'))
    // Opened while Slack makes the publish wait, without a refresh of its own.
    refuseFirstPublish(slack, () => store.insert(record('second', 'C0AGENTS')))

    await tab.opened('U0ALICE')
    await vi.waitFor(() => expect(published('U0ALICE')).toHaveLength(1), { timeout: 5000 })

    expect(text('U0ALICE')).toContain('Question first?')
    expect(text('U0ALICE')).toContain('Question second?')
  })

  it('leaves the tab to another instance that claimed it while a Retry-After outlasted this one\'s claim', async () => {
    const store = new MemoryAskStore()
    const viewers = new MemoryHomeViewers()
    Object.assign(store, { homeViewers: viewers })
    let clock = NOW
    const { slack, tab, published } = await setup({ allowedUsers: ['U0ALICE'], store, now: () => clock, instance: 'a' })
    slack.members.set('C0AGENTS', ['U0ALICE'])
    await store.insert(record('first', 'C0AGENTS'))
    // Slack asks for longer than the claim: meanwhile instance b takes the tab (and is publishing it).
    const refusals = refuseFirstPublish(slack, async () => {
      clock += 20_000
      expect(await viewers.claim('U0ALICE', 'b', clock, clock + 15_000)).toBe(true)
    })

    const claimedBy: string[] = []
    const claim = viewers.claim.bind(viewers)
    viewers.claim = async (user, holder, now, until) => {
      claimedBy.push(holder)
      return claim(user, holder, now, until)
    }

    await tab.opened('U0ALICE')
    // a's second turn, after the pause, asks for the claim again before drawing the tab.
    await vi.waitFor(() => expect(claimedBy.filter((holder) => holder === 'a')).toHaveLength(2), { timeout: 5000 })
    await tab.stop()

    expect(refusals()).toBe(1)
    expect(published('U0ALICE')).toEqual([])
    // b was told to publish once more before it lets go, with what is pending by then.
    expect(await viewers.release('U0ALICE', 'b')).toBe(false)
  })

  it('publishes again after Slack’s Retry-After when views.publish is rate limited, keeping the notice', async () => {
    const { slack, tab, published, text } = await setup()
    refuseFirstPublish(slack)

    tab.tell('U0ALICE', { kind: 'not-allowed' })
    await vi.waitFor(() => expect(published('U0ALICE')).toHaveLength(1), { timeout: 5000 })

    expect(text('U0ALICE')).toContain('not allowed')
  })
})
