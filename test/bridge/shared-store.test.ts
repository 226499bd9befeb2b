import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AskLifecycle } from '../../src/bridge/ask-lifecycle.js'
import { createProvider } from '../../src/bridge/waiting.js'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import type { MessageContent } from '../../src/slack/slack-port.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { testLifecycle } from '../support/test-lifecycle.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }
const answer = { answers: [{ id: 'pm', selected: ['npm'] }] }
const by = { id: 'U0BOB', name: 'bob' }

let db: FreshDatabase
const running: { lifecycle: AskLifecycle; store: PostgresAskStore }[] = []

beforeAll(async () => {
  db = await freshDatabase()
})

afterEach(async () => {
  for (const { lifecycle, store } of running.splice(0)) {
    await lifecycle.stop({ withdrawOpen: false })
    await store.close()
  }
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  await client.query('TRUNCATE asks, instance_leases')
  await client.end()
})

afterAll(async () => {
  await db?.drop()
})

/** One process on the shared database: its own store connection and lifecycle, the same Slack workspace. */
async function instance(slack: FakeSlackPort, owner: 'service' | 'library', leaseMs?: number) {
  const store = await PostgresAskStore.open(db.url)
  const lifecycle = testLifecycle({ store, slack, owner, ...(leaseMs !== undefined ? { leaseMs } : {}) })
  await lifecycle.recover()
  running.push({ lifecycle, store })
  return { store, lifecycle, provider: createProvider(lifecycle) }
}

async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const value = await check()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('instances sharing one PostgreSQL store', () => {
  it('resolves ask() on the instance that asked when the click is handled by another, and updates the message once', async () => {
    const slack = new FakeSlackPort()
    const a = await instance(slack, 'library')
    const b = await instance(slack, 'service')

    const asked = a.provider.ask({ questions: [question] })
    const posted = await until(async () => (await b.store.listPending()).find((record) => record.message))
    const result = await b.lifecycle.settle(posted!.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers: answer.answers }, answer })

    expect(result.won).toBe(true)
    await expect(asked).resolves.toEqual(answer)
    expect(slack.messages[0]!.updates).toHaveLength(1)
    expect((await a.store.get(posted!.id))?.finalMessageShown).toBe(true)
  })

  it('shows a click settled on another instance before the poster recorded the message, however late the settler is with its claim', async () => {
    // Slack has the message, but the poster's process has not heard back yet.
    let answerPost = () => {}
    const slack = new (class extends FakeSlackPort {
      override async postMessage(channel: string, content: MessageContent, threadTs?: string) {
        const posted = await super.postMessage(channel, content, threadTs)
        if (!threadTs) await new Promise<void>((resolve) => (answerPost = resolve))
        return posted
      }
    })()
    const a = await instance(slack, 'library')
    const b = await instance(slack, 'service')
    // B is slow to release a message claim: whatever it would hold, it holds while A records and shows the message.
    let releaseOnB = () => {}
    const release = b.store.releaseMessage.bind(b.store)
    b.store.releaseMessage = async (...args) => {
      await new Promise<void>((resolve) => (releaseOnB = resolve))
      return release(...args)
    }

    const asked = a.provider.ask({ questions: [question] })
    await until(async () => slack.messages.length === 1)
    const [open] = await b.store.listPending()
    const settled = b.lifecycle.settle(open!.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers: answer.answers }, answer })
    await until(async () => (await a.store.get(open!.id))?.status === 'answered')
    answerPost()
    // ask() returns once A's post has recorded the message and tried to show the settlement on it.
    await expect(asked).resolves.toEqual(answer)
    const updatesBeforeB = slack.messages[0]!.updates.length
    releaseOnB()
    await settled

    expect(updatesBeforeB).toBe(1)
    expect((await a.store.get(open!.id))?.finalMessageShown).toBe(true)
    expect(slack.messages[0]!.updates).toHaveLength(1)
    expect(slack.messages[0]!.updates[0]!.text).toContain('Answered by')
  })

  it('lets a click on the instance that posted an ask lose to another instance’s withdrawal, though that instance still keeps the ask as open', async () => {
    const slack = new FakeSlackPort()
    const a = await instance(slack, 'service')
    const b = await instance(slack, 'service')
    const posted = await a.lifecycle.open({ questions: [question] })
    await b.lifecycle.abort(posted.id)

    // What a click on A reads: A posted the ask and was not told of the withdrawal.
    const read = await a.lifecycle.readForAction(posted.id)
    const result = await a.lifecycle.settle(posted.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers: answer.answers }, answer }, read)

    expect(read?.status).toBe('pending')
    expect(result).toMatchObject({ won: false, record: { status: 'aborted' } })
    expect((await a.store.get(posted.id))?.settlement?.outcome.kind).toBe('aborted')
    expect(slack.messages[0]!.updates).toHaveLength(1)
    expect(slack.messages[0]!.updates[0]!.text).not.toContain('Answered by')
  })

  it('withdraws an ask through any instance, and the asking instance’s ask() rejects with ASK_ABORTED', async () => {
    const slack = new FakeSlackPort()
    const a = await instance(slack, 'library')
    const b = await instance(slack, 'service')

    const asked = a.provider.ask({ questions: [question] })
    // Caught from the start: a's ask() may reject (NOTIFY) while b is still updating the message.
    const outcome = asked.then(() => undefined, (error: unknown) => error)
    const posted = await until(async () => (await b.store.listPending()).find((record) => record.message))
    await b.lifecycle.abort(posted!.id)

    expect(await outcome).toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('expires an ask once when two instances are alive, both armed, and updates the message once', async () => {
    const slack = new FakeSlackPort()
    const a = await instance(slack, 'service')
    const b = await instance(slack, 'service')

    const record = await a.lifecycle.open({ questions: [question] }, { timeoutMs: 1000 })
    // B hears of the new ask through NOTIFY, a moment after A's insert commits.
    const armedOnB = await until(async () => b.lifecycle.armedTimers || undefined)
    await until(async () => a.lifecycle.armedTimers === 0 && b.lifecycle.armedTimers === 0 && (await a.store.get(record.id))?.finalMessageShown)

    expect(armedOnB).toBe(1)
    expect((await a.store.get(record.id))?.status).toBe('expired')
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('expires the asks of a library process that stopped renewing its lease, from another instance', async () => {
    const slack = new FakeSlackPort()
    const library = await instance(slack, 'library', 300)
    const service = await instance(slack, 'service', 300)
    const asked = library.provider.ask({ questions: [question] })
    asked.catch(() => undefined)
    const posted = await until(async () => (await service.store.listPending()).find((record) => record.message))

    // As if SIGKILLed: its timers stop, nothing is withdrawn, the lease is left to run out.
    await library.lifecycle.stop({ withdrawOpen: false })
    const expired = await until(async () => {
      const record = await service.store.get(posted!.id)
      return record?.status === 'expired' && record.finalMessageShown && record
    })

    expect(expired.settlement?.outcome.kind).toBe('expired')
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('expires an ask whose library process holds no lease at all (it ended it, or the ask predates leases), from an instance that starts', async () => {
    const slack = new FakeSlackPort()
    const library = await instance(slack, 'library', 60_000)
    const asked = library.provider.ask({ questions: [question] })
    asked.catch(() => undefined)
    const posted = await until(async () => (await library.store.listPending()).find((record) => record.message))
    await library.lifecycle.stop({ withdrawOpen: false })
    await library.store.endLease(library.lifecycle.instance)

    const service = await instance(slack, 'service')

    const record = await service.store.get(posted!.id)
    expect(record?.status).toBe('expired')
    await until(async () => (await service.store.get(posted!.id))?.finalMessageShown)
    expect(slack.messages[0]!.updates).toHaveLength(1)
  })

  it('arms expiry, on an instance that starts, for pending asks other owners posted and no one is timing', async () => {
    const slack = new FakeSlackPort()
    const first = await instance(slack, 'service')
    const record = await first.lifecycle.open({ questions: [question] }, { timeoutMs: 1_500 })
    // As if SIGKILLed: its expiry timer is gone with it.
    await first.lifecycle.stop({ withdrawOpen: false })
    expect(first.lifecycle.armedTimers).toBe(0)

    const library = await instance(slack, 'library')

    expect(library.lifecycle.armedTimers).toBe(1)
    const expired = await until(async () => {
      const latest = await library.store.get(record.id)
      return latest?.status === 'expired' && latest.finalMessageShown && latest
    })
    expect(expired.settlement?.outcome.kind).toBe('expired')
  })

  it('keeps the asks of a library process that still renews its lease', async () => {
    const slack = new FakeSlackPort()
    const library = await instance(slack, 'library', 150)
    const asked = library.provider.ask({ questions: [question] })
    const posted = await until(async () => (await library.store.listPending()).find((record) => record.message))
    const until1 = await library.store.leaseUntil(library.lifecycle.instance)
    await until(async () => ((await library.store.leaseUntil(library.lifecycle.instance)) ?? 0) > until1! + 100)

    const service = await instance(slack, 'service', 150)
    await library.lifecycle.settle(posted!.id, { status: 'answered', outcome: { kind: 'answered', by, at: 1, answers: answer.answers }, answer })

    await expect(asked).resolves.toEqual(answer)
    expect(service.lifecycle.armedTimers).toBe(0)
  })
})
