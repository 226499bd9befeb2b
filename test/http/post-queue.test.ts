import { afterEach, describe, expect, it } from 'vitest'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { visibleText } from '../support/messages.js'

/**
 * `POST /v1/asks` with the real bridge on the local stand-in: repeats with
 * an Idempotency-Key, and a burst to one channel, which Slack's pace
 * (a few at once, then one a second) queues.
 */

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

const ask = (question: string) => ({ questions: [{ id: 'pick', question, options: [{ label: 'npm' }, { label: 'pnpm' }] }] })

async function start(options: { postAnswerWithinMs?: number } = {}) {
  const slack: Sandbox = await startSandbox()
  cleanups.push(() => slack.close())
  const bridge = await createSlackBridge({ botToken: slack.botToken, slackApiUrl: slack.apiUrl, appToken: slack.appToken, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger, owner: 'service' })
  cleanups.push(() => bridge.stop({ withdrawOpen: true }))
  const server: ApiServer = createApiServer({ bridge, logger: silentLogger, ...options })
  cleanups.push(() => server.close())
  const { url } = await server.listen('127.0.0.1', 0)
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as Record<string, any> }
  }
  return { slack, bridge, post, channel: slack.defaultChannel }
}

describe('POST /v1/asks with an Idempotency-Key', () => {
  it('answers a repeat with the same ask and posts it once', async () => {
    const { slack, post, channel } = await start()

    const first = await post(ask('Which one?'), { 'idempotency-key': 'agent-7-call-1' })
    const repeat = await post(ask('Which one?'), { 'idempotency-key': 'agent-7-call-1' })

    expect(first.status).toBe(201)
    expect(repeat).toEqual(first)
    expect(slack.messages(channel)).toHaveLength(1)
  })

  it('posts once when the same key arrives twice at once', async () => {
    const { slack, post, channel } = await start()

    const both = await Promise.all([post(ask('Which one?'), { 'idempotency-key': 'k-race' }), post(ask('Which one?'), { 'idempotency-key': 'k-race' })])

    expect(both.map((response) => response.status)).toEqual([201, 201])
    expect(both[1]!.body.id).toBe(both[0]!.body.id)
    expect(both[1]!.body.ts).toBe(both[0]!.body.ts)
    expect(slack.messages(channel)).toHaveLength(1)
  })

  it('posts asks with different keys separately', async () => {
    const { slack, post, channel } = await start()

    const a = await post(ask('Which one?'), { 'idempotency-key': 'k-a' })
    const b = await post(ask('Which one?'), { 'idempotency-key': 'k-b' })

    expect(a.body.id).not.toBe(b.body.id)
    expect(slack.messages(channel)).toHaveLength(2)
  })

  it('refuses a key with spaces or over 255 characters with BAD_REQUEST', async () => {
    const { slack, post, channel } = await start()

    const spaced = await post(ask('Which one?'), { 'idempotency-key': 'two words' })
    const long = await post(ask('Which one?'), { 'idempotency-key': 'k'.repeat(256) })

    expect(spaced).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST', message: expect.stringMatching(/Idempotency-Key/) } } })
    expect(long.status).toBe(400)
    expect(slack.messages(channel)).toHaveLength(0)
  })
})

describe('POST /v1/asks under a burst to one channel', () => {
  it('answers queued with the expected post time once a post waits past the limit, and posts every ask once', async () => {
    const { slack, post, channel } = await start({ postAnswerWithinMs: 500 })

    const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => post(ask(`Burst ask ${index}?`))))
    await slack.waitFor(() => slack.messages(channel).length === 8 || undefined, { timeoutMs: 20_000 })

    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201))
    const queued = responses.filter((response) => response.body.queued === true)
    const posted = responses.filter((response) => response.body.queued === undefined)
    // Slack takes a few at once, then one a second: the first went out at once, the last waited.
    expect(posted.length).toBeGreaterThan(0)
    expect(queued.length).toBeGreaterThan(0)
    for (const response of queued) {
      expect(response.body).toEqual({ id: expect.any(String), status: 'pending', channel, queued: true, expectedPostAt: expect.any(String) })
      expect(Date.parse(response.body.expectedPostAt)).toBeGreaterThan(Date.now() - 60_000)
    }
    for (const response of posted) expect(response.body.ts).toMatch(/^\d+\.\d+$/)
    const texts = slack.messages(channel).map((message) => visibleText(message))
    for (let index = 0; index < 8; index++) expect(texts.filter((text) => text.includes(`Burst ask ${index}?`))).toHaveLength(1)
  })

  it('answers as soon as the ask is queued when the client prefers respond-async', async () => {
    const { slack, post, channel } = await start()

    const response = await post(ask('Right away?'), { prefer: 'respond-async' })
    await slack.waitFor(() => slack.messages(channel).length === 1 || undefined)

    expect(response).toMatchObject({ status: 201, body: { status: 'pending', channel, queued: true, expectedPostAt: expect.any(String) } })
    expect(response.body.ts).toBeUndefined()
  })
})
