import { describe, expect, it } from 'vitest'
import { createProvider } from '../../src/bridge/waiting.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }
const by = { id: 'U1', name: 'ada' }

function setup(options: { owner?: 'service' | 'library'; defaultTimeoutMs?: number } = {}) {
  const slack = new FakeSlackPort()
  const store = new MemoryAskStore()
  const lifecycle = testLifecycle({ store, slack, owner: options.owner ?? 'library', ...(options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}) })
  return { slack, store, lifecycle, provider: createProvider(lifecycle) }
}

async function firstPending(store: MemoryAskStore) {
  for (let i = 0; i < 50; i++) {
    const [record] = await store.listPending()
    if (record?.message) return record
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  throw new Error('no ask was posted')
}

describe('AskLifecycle', () => {
  it('resolves ask() with the exact label once a person answers, then shows who answered', async () => {
    const { slack, store, lifecycle, provider } = setup()

    const answer = provider.ask({ questions: [question] })
    const record = await firstPending(store)
    await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] }, answer: { answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] } })

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] })
    expect(slack.messages[0]!.updates).toHaveLength(1)
    expect(JSON.stringify(slack.messages[0]!.updates[0])).toContain('<@U1>')
    expect((await store.get(record.id))?.finalMessageShown).toBe(true)
  })

  it('keeps the first settlement when twenty people answer at once', async () => {
    const { slack, store, lifecycle, provider } = setup()
    const answer = provider.ask({ questions: [question] })
    const record = await firstPending(store)

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const label = i % 2 === 0 ? 'npm' : 'pnpm (Recommended)'
        const answers = [{ id: 'pm', selected: [label] }]
        return lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by: { id: `U${i}` }, at: i, answers }, answer: { answers } })
      }),
    )

    expect(results.filter((result) => result.won)).toHaveLength(1)
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('resolves the answer even when updating the message fails', async () => {
    const { slack, store, lifecycle, provider } = setup()
    const answer = provider.ask({ questions: [question] })
    const record = await firstPending(store)
    slack.failNext.set('chat.update', 'fatal_error')

    const answers = [{ id: 'pm', selected: ['npm'] }]
    await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })

    await expect(answer).resolves.toEqual({ answers })
    expect((await store.get(record.id))?.finalMessageShown).toBe(false)
  })

  it('shows a settled message at the next recovery when the earlier update failed', async () => {
    const { slack, store, lifecycle, provider } = setup()
    const answer = provider.ask({ questions: [question] })
    const record = await firstPending(store)
    slack.failNext.set('chat.update', 'internal_error')
    const answers = [{ id: 'pm', selected: ['npm'] }]
    await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })
    await answer

    await lifecycle.recover()

    expect(slack.messages[0]!.updates).toHaveLength(1)
    expect((await store.get(record.id))?.finalMessageShown).toBe(true)
  })

  it('refuses an answer that breaks the seam before it reaches the agent', async () => {
    const { store, lifecycle, provider } = setup()
    void provider.ask({ questions: [question] }).catch(() => undefined)
    const record = await firstPending(store)

    const answers = [{ id: 'pm', selected: ['yarn'] }]
    const settling = lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })

    await expect(settling).rejects.toMatchObject({ name: 'UserInteractionError', code: 'BAD_REQUEST' })
    expect((await store.get(record.id))?.status).toBe('pending')
  })

  it('withdraws the question when the request signal aborts, and rejects with ASK_ABORTED', async () => {
    const { slack, store, provider } = setup()
    const controller = new AbortController()
    const answer = provider.ask({ questions: [question], signal: controller.signal })
    const record = await firstPending(store)

    controller.abort()

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
    expect((await store.get(record.id))?.status).toBe('aborted')
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('expires a question after its timeout with ASK_EXPIRED and clears the timer', async () => {
    const { store, lifecycle, provider } = setup({ defaultTimeoutMs: 30 })

    const answer = provider.ask({ questions: [question] })

    await expect(answer).rejects.toMatchObject({ code: 'ASK_EXPIRED' })
    expect((await store.listPending())).toHaveLength(0)
    expect(lifecycle.armedTimers).toBe(0)
  })

  it('rejects with SLACK_API_ERROR naming Slack\'s error and the fix when the post fails', async () => {
    const { slack, provider } = setup()
    slack.failNext.set('chat.postMessage', 'not_in_channel')

    const answer = provider.ask({ questions: [question] })

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'SLACK_API_ERROR' })
    await expect(answer).rejects.toThrow(/not_in_channel.*invite the app/)
  })

  it('opens a DM when the channel is a user id', async () => {
    const { slack, lifecycle } = setup()

    const record = await lifecycle.open({ questions: [question] }, { channel: 'U0PERSON1' })

    expect(record.message?.channel).toBe('D0PERSON1')
    expect(slack.messages[0]!.channel).toBe('D0PERSON1')
  })

  it('withdraws every open ask of a library on stop with ASK_ABORTED', async () => {
    const { slack, store, lifecycle, provider } = setup()
    const first = provider.ask({ questions: [question] })
    const second = provider.ask({ questions: [{ ...question, id: 'other' }] })
    await firstPending(store)
    while ((await store.listPending()).filter((r) => r.message).length < 2) await new Promise((resolve) => setTimeout(resolve, 2))

    await lifecycle.stop()

    await expect(first).rejects.toMatchObject({ code: 'ASK_ABORTED' })
    await expect(second).rejects.toMatchObject({ code: 'ASK_ABORTED' })
    expect(slack.messages.every((message) => message.updates.length === 1)).toBe(true)
  })

  it('tells its settlement listeners (the Home tabs) of an answer before a stop made as soon as ask() resolved returns', async () => {
    // `dsh-slack ask` in-process stops its bridge the moment the agent has the answer (issue 39's matrix finding).
    const { store, lifecycle, provider } = setup()
    const told: string[] = []
    lifecycle.onSettled((record) => told.push(record.id))
    const answer = provider.ask({ questions: [question] })
    const record = await firstPending(store)
    const stopped = answer.then(async () => {
      await lifecycle.stop()
      return [...told]
    })

    const answers = [{ id: 'pm', selected: ['npm'] }]
    await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })

    expect(await stopped).toEqual([record.id])
    await new Promise((resolve) => setImmediate(resolve))
    expect(told).toEqual([record.id])
  })

  it('tells its open-ask listeners (the Home tabs) when a tool call\'s arguments arrive after its card', async () => {
    const { store, lifecycle } = setup({ owner: 'service' })
    const record = await lifecycle.openApproval({ toolName: 'bash', callId: 'call-1' })
    await firstPending(store)
    const told: (string | undefined)[] = []
    lifecycle.onOpenChanged((changed) => told.push(changed.approval?.arguments))

    await lifecycle.showArguments(record.id, JSON.stringify({ command: 'rm -rf build/' }))

    expect(told).toEqual([JSON.stringify({ command: 'rm -rf build/' })])
    await lifecycle.stop()
  })

  it('keeps a service\'s asks open on stop so a restart can resume them', async () => {
    const { store, lifecycle } = setup({ owner: 'service' })
    const record = await lifecycle.open({ questions: [question] })

    await lifecycle.stop()

    expect((await store.get(record.id))?.status).toBe('pending')
  })

  it('marks a dead library process\'s asks expired at the next start', async () => {
    const { store, lifecycle, slack } = setup()
    await store.insert({ id: 'orphan1', kind: 'question', questions: [{ ...question, multiSelect: false }], target: 'C0AGENTS', status: 'pending', createdAt: 0, owner: { kind: 'library', pid: 2 ** 22 + 12345, instance: 'gone' }, message: { channel: 'C0AGENTS', ts: '1.000001' } })
    await slack.postMessage('C0AGENTS', { text: 'x', blocks: [] })
    slack.messages[0]!.ts = '1.000001'

    await lifecycle.recover()

    expect((await store.get('orphan1'))?.status).toBe('expired')
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('returns the existing ask for a known external key and posts nothing more', async () => {
    const { slack, lifecycle } = setup()

    const first = await lifecycle.open({ questions: [question] }, { relayDelivery: { key: 'http://host#rpc-1' } })
    const again = await lifecycle.open({ questions: [question] }, { relayDelivery: { key: 'http://host#rpc-1' } })

    expect(again.id).toBe(first.id)
    expect(slack.messages).toHaveLength(1)
  })

  it("says a relayed request's answer is being delivered until the relay has delivered it, then who answered", async () => {
    const { slack, lifecycle } = setup({ owner: 'service' })
    const answers = [{ id: 'pm', selected: ['npm'] }]
    const record = await lifecycle.open({ questions: [question] }, { relayDelivery: { key: 'http://host#rpc-1' } })

    await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })
    const whileDelivering = JSON.stringify(slack.messages[0]!.updates.at(-1))
    await lifecycle.delivered(record.id)
    const once = JSON.stringify(slack.messages[0]!.updates.at(-1))

    expect(whileDelivering).toMatch(/Delivering/)
    expect(once).not.toMatch(/Delivering/)
    expect(once).toContain('<@U1>')
  })

  it('shows who answered an ask posted with an idempotency key at once: nothing is left to deliver', async () => {
    const { slack, lifecycle } = setup({ owner: 'service' })
    const record = await lifecycle.open({ questions: [question] }, { idempotencyKey: 'http-idempotency:run-1' })

    await lifecycle.settle(record.id, { status: 'cancelled', outcome: { kind: 'dismissed', by, at: 1 }, error: { code: 'ASK_CANCELLED', message: 'dismissed' } })

    expect(slack.messages[0]!.updates).toHaveLength(1)
    expect(JSON.stringify(slack.messages[0]!.updates[0])).not.toMatch(/Delivering/)
    expect(JSON.stringify(slack.messages[0]!.updates[0])).toContain('<@U1>')
  })

  it('drops the expiry timer of an ask once it is answered: nothing is left armed', async () => {
    const { lifecycle } = setup({ owner: 'service', defaultTimeoutMs: 60_000 })
    const answers = [{ id: 'pm', selected: ['npm'] }]
    const record = await lifecycle.open({ questions: [question] })
    const armed = lifecycle.armedTimers

    await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })

    expect([armed, lifecycle.armedTimers]).toEqual([1, 0])
  })

  it('leaves no watcher behind once asks settle', async () => {
    const { store, lifecycle, provider } = setup()
    const answers = [{ id: 'pm', selected: ['npm'] }]

    for (let i = 0; i < 50; i++) {
      const pending = provider.ask({ questions: [question] })
      const record = await firstPending(store)
      await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })
      await pending
    }

    expect(store.watchers.size).toBe(0)
    expect(lifecycle.armedTimers).toBe(0)
  })

  it('tells its open-ask listeners (the Home tabs) only after the caller has the posted ask', async () => {
    const { lifecycle } = setup({ owner: 'service' })
    const told: string[] = []
    lifecycle.onOpenChanged((record) => told.push(record.id))

    const record = await lifecycle.open({ questions: [question] })
    expect(record.message).toBeDefined()
    expect(told).toEqual([])

    await new Promise((resolve) => setImmediate(resolve))
    expect(told).toEqual([record.id])
  })
})

describe('message updates of one ask', () => {
  it('go out in the order they were made, so a correction is never overtaken', async () => {
    const { slack, store, lifecycle } = setup()
    const record = await lifecycle.open({ questions: [question] })
    const answers = [{ id: 'pm', selected: ['npm'] }]
    let releaseFirst = () => {}
    const original = slack.updateMessage.bind(slack)
    let calls = 0
    slack.updateMessage = async (channel, ts, content) => {
      if (calls++ === 0) await new Promise<void>((resolve) => (releaseFirst = resolve))
      return original(channel, ts, content)
    }

    const settling = lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } })
    while ((await store.get(record.id))?.status === 'pending') await new Promise((resolve) => setTimeout(resolve, 1))
    const correcting = lifecycle.closeElsewhere(record.id, 'answered')
    await new Promise((resolve) => setTimeout(resolve, 5))
    releaseFirst()
    await Promise.all([settling, correcting])

    const updates = slack.messages[0]!.updates.map((update) => JSON.stringify(update))
    expect(updates).toHaveLength(2)
    expect(updates[0]).toContain('<@U1>')
    expect(updates[1]).not.toContain('<@U1>')
    expect((await store.get(record.id))?.status).toBe('answered')
  })

  it('still shows a relay correction that arrives while the answer is being stored', async () => {
    const { slack, lifecycle } = setup()
    const record = await lifecycle.open({ questions: [question] })
    const answers = [{ id: 'pm', selected: ['npm'] }]

    await Promise.all([
      lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers }, answer: { answers } }),
      lifecycle.closeElsewhere(record.id, 'answered'),
    ])

    expect(slack.messages[0]!.updates).toHaveLength(2)
    expect(JSON.stringify(slack.messages[0]!.updates[1])).not.toContain('<@U1>')
  })
})

describe('AskLifecycle card updates behind Tier 3 (decision 0045)', () => {
  it('shows a quorum’s settlement without first sending the progress refresh still waiting for the budget', async () => {
    const slack = new FakeSlackPort()
    const store = new MemoryAskStore()
    // One chat.update at once, then one every 100 ms: the second approval's refresh has to wait.
    const roomy = { perSecond: 1000, burst: 1000 }
    const pacer = new ChannelPacer({ rules: { channelPost: roomy, workspacePost: roomy, update: { perSecond: 10, burst: 1 } }, updateBudget: 'documented' })
    const lifecycle = testLifecycle({ store, slack, owner: 'library', pacer })
    const record = await lifecycle.open({ questions: [planReviewQuestion('# Plan\n\n1. Ship it.')] }, { policy: { approvals: 3 } })

    await lifecycle.approve(record.id, { id: 'U1' })
    const waiting = lifecycle.approve(record.id, { id: 'U2' })
    await lifecycle.approve(record.id, { id: 'U3' })
    await waiting

    const updates = slack.messages[0]!.updates.map((content) => JSON.stringify(content))
    expect(updates).toHaveLength(2)
    expect(updates[0]).toContain('1 of 3')
    expect(updates[1]).toMatch(/Approved by/)
  })
})
