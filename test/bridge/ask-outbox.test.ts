import { afterEach, describe, expect, it, vi } from 'vitest'
import { AskOutbox } from '../../src/bridge/ask-outbox.js'
import { silentLogger } from '../../src/log/logger.js'
import { TIMING } from '../../src/slack/timing.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { cardMetadata } from '../../src/bridge/posted-card-lookup.js'
import { recordingLogger } from '../support/e2e.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }], multiSelect: false }

function unposted(id: string, owner: AskRecord['owner'] = { kind: 'service' }): AskRecord {
  return { id, kind: 'question', questions: [question], target: 'C0AGENTS', status: 'pending', createdAt: Date.now(), owner }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('AskOutbox', () => {
  it('keeps the post claim while a post lasts longer than the claim, so no other instance takes it over', async () => {
    vi.useFakeTimers()
    const store = new MemoryAskStore()
    const outbox = new AskOutbox({ store, instance: 'a', now: Date.now, logger: silentLogger, stopped: () => false, postTakenOver: async (record) => record })
    const claim = outbox.claimAtInsert(0)
    await store.insert(unposted('slow'), undefined, claim)
    let finish!: () => void

    const posting = outbox.posting('slow', claim, (mayPost) => new Promise<boolean>((resolve) => (finish = () => resolve(mayPost()))))
    await vi.advanceTimersByTimeAsync(TIMING.postClaimMs * 3)
    const other = await store.claimPost('slow', 'b', Date.now(), Date.now() + TIMING.postClaimMs)
    finish()

    expect(other.kind).toBe('held')
    expect(await posting).toBe(true)
  })

  it('tells its post not to call Slack once another instance has taken the claim', async () => {
    vi.useFakeTimers()
    const store = new MemoryAskStore()
    const outbox = new AskOutbox({ store, instance: 'a', now: Date.now, logger: silentLogger, stopped: () => false, postTakenOver: async (record) => record })
    const claim = { holder: 'a', until: Date.now() + 10 }
    await store.insert(unposted('late'), undefined, claim)
    let check!: () => boolean

    const posting = outbox.posting('late', claim, async (mayPost) => void (check = mayPost))
    await posting
    await vi.advanceTimersByTimeAsync(20)
    await store.claimPost('late', 'b', Date.now(), Date.now() + TIMING.postClaimMs)

    expect(check()).toBe(false)
  })

  it('takes over an unposted ask once its claim runs out, and not before', async () => {
    vi.useFakeTimers()
    const store = new MemoryAskStore()
    const takenOver: string[] = []
    const outbox = new AskOutbox({ store, instance: 'b', now: Date.now, logger: silentLogger, stopped: () => false, postTakenOver: async (record) => (takenOver.push(record.id), record) })
    const record = unposted('orphan')
    await store.insert(record, undefined, { holder: 'dead', until: Date.now() + 1_000 })

    const first = await outbox.takeOver(record)
    const before = [...takenOver]
    await vi.advanceTimersByTimeAsync(1_100)

    expect(first.result).toEqual({ kind: 'held', until: expect.any(Number) })
    expect(before).toEqual([])
    expect(takenOver).toEqual(['orphan'])
    outbox.stop()
  })
})

describe('AskLifecycle with the outbox', () => {
  it('posts, once, an ask another instance recorded and died before posting, when the sweep sees it', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    await store.insert(unposted('orphan'), undefined, { holder: 'dead', until: Date.now() - 1 })
    const lifecycle = testLifecycle({ store, slack, owner: 'service' })

    await lifecycle.recover()
    await lifecycle.whenFullyPosted('orphan')
    await lifecycle.recover()
    await lifecycle.whenFullyPosted('orphan')

    expect(slack.messages).toHaveLength(1)
    expect((await store.get('orphan'))?.message?.ts).toBe(slack.messages[0]!.ts)
    await lifecycle.stop()
  })

  it('leaves alone an ask whose poster still holds its claim', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    await store.insert(unposted('busy'), undefined, { holder: 'alive', until: Date.now() + 60_000 })
    const lifecycle = testLifecycle({ store, slack, owner: 'service' })

    await lifecycle.recover()
    await lifecycle.whenFullyPosted('busy')

    expect(slack.messages).toHaveLength(0)
    await lifecycle.stop()
  })

  it('posts the ask a repeated request names when its first poster died before posting it, and returns it with its card', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    await store.insert({ ...unposted('retried'), idempotencyKey: 'http-idempotency:k1' }, undefined, { holder: 'dead', until: Date.now() - 1 })
    const lifecycle = testLifecycle({ store, slack, owner: 'service' })

    const again = await lifecycle.open({ questions: [question] }, { idempotencyKey: 'http-idempotency:k1' })

    expect(again.id).toBe('retried')
    expect(again.message?.ts).toBe(slack.messages[0]!.ts)
    expect(slack.messages).toHaveLength(1)
    await lifecycle.stop()
  })

  it('tells a repeated request when the ask will be posted while its first poster still holds the claim', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    const until = Date.now() + 60_000
    await store.insert({ ...unposted('held'), idempotencyKey: 'http-idempotency:k2' }, undefined, { holder: 'alive', until })
    const lifecycle = testLifecycle({ store, slack, owner: 'service' })
    const queued: number[] = []

    const again = await lifecycle.open({ questions: [question] }, { idempotencyKey: 'http-idempotency:k2', onQueued: (ask) => queued.push(ask.expectedPostAt) })

    expect(again.message).toBeUndefined()
    expect(queued).toEqual([until])
    expect(slack.messages).toHaveLength(0)
    await lifecycle.stop()
  })

  it('adopts the card a dead poster got into Slack before recording it, instead of posting a second one', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    await store.insert(unposted('accepted'), undefined, { holder: 'dead', until: Date.now() - 1 })
    const theirs = await slack.postMessage('C0AGENTS', { text: 'its card', blocks: [] }, undefined, cardMetadata('accepted'))
    // Another ask's card in the same channel, newer: not this one's.
    await slack.postMessage('C0AGENTS', { text: 'another ask', blocks: [] }, undefined, cardMetadata('other'))
    const lifecycle = testLifecycle({ store, slack, owner: 'service' })

    await lifecycle.recover()
    await lifecycle.whenFullyPosted('accepted')

    expect(slack.messages).toHaveLength(2)
    expect((await store.get('accepted'))?.message?.ts).toBe(theirs.ts)
    expect((await store.events('accepted')).map((event) => event.type)).toContain('posted')
    await lifecycle.stop()
  })

  it('posts its card with its ask id in Slack metadata, so a taker can find it', async () => {
    const slack = new FakeSlackPort()
    const lifecycle = testLifecycle({ store: new MemoryAskStore(), slack, owner: 'service' })

    const asked = await lifecycle.open({ questions: [question] })

    expect(slack.messages[0]!.metadata).toEqual(cardMetadata(asked.id))
    await lifecycle.stop()
  })

  it('posts as before when the history look-up is refused, and says so once', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    const logger = recordingLogger()
    await store.insert(unposted('first'), undefined, { holder: 'dead', until: Date.now() - 1 })
    await store.insert(unposted('second'), undefined, { holder: 'dead', until: Date.now() - 1 })
    const lifecycle = testLifecycle({ store, slack, owner: 'service', logger })
    slack.historyRefusal = 'missing_scope'

    await lifecycle.recover()
    await lifecycle.whenFullyPosted('first')
    await lifecycle.whenFullyPosted('second')

    expect(slack.historyLookups).toBe(2)
    expect(slack.messages).toHaveLength(2)
    expect((await store.get('first'))?.message?.ts).toBeDefined()
    expect((await store.get('second'))?.message?.ts).toBeDefined()
    expect(logger.lines.filter((line) => line.includes('could not look in'))).toEqual([expect.stringContaining('missing_scope')])
    await lifecycle.stop()
  })
})
