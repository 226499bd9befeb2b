/**
 * Answering by a reply in a card's thread (decision 0069), end to end: real
 * Bolt and the Web API client against the stand-in, which sends the
 * Events API `message` event a person's reply makes, over Socket Mode and
 * over signed HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { SAMPLE_ASKS } from '../../src/service/sample-asks.js'
import { startService } from '../../src/service/start-service.js'
import { startRelay } from '../../src/relay/index.js'
import { MODES, startRig } from '../support/e2e.js'
import { startFakeHost } from '../support/fake-host.js'
import { FAST } from '../relay/support/fixtures.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }
const PLAN = '# Plan\n\n1. Add the migration\n2. Backfill\n3. Drop the old column'

describe.each(MODES)('a reply in the card’s thread, in %s mode', (mode) => {
  it('is the Other answer of a question, exactly as typed, and the person is told privately what was recorded', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pm] })
    const card = await postedMessage(slack, channel)

    await slack.user(ALICE).reply(card, 'yarn berry, since <the monorepo> uses it & PnP')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'yarn berry, since <the monorepo> uses it & PnP' }] })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(ALICE)
    const told = await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])
    expect(told).toMatchObject({ thread_ts: card.ts })
    expect(told.text).toBe('Recorded your reply as the *Other* answer to “Which package manager?”.')
  })

  it('is the Request changes feedback of a plan review, and the card says changes were requested', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [planReviewQuestion(PLAN)] })
    const card = await postedMessage(slack, channel)

    await slack.user(ALICE).reply(card, 'Step 3 drops the column before the deploy: swap 2 and 3')

    expect(await answer).toEqual({ answers: [{ id: expect.any(String), selected: [], custom: 'Step 3 drops the column before the deploy: swap 2 and 3' }] })
    expect((await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])).text).toContain('*Request changes* feedback')
  })

  it('refuses an outsider privately, in the thread, and the ask stays open for the people allowed', async () => {
    const { slack, bridge, channel } = await startRig(mode, { allowedUsers: [ALICE] })
    const answer = bridge.provider.ask({ questions: [pm] })
    const card = await postedMessage(slack, channel)

    await slack.user(BOB).reply(card, 'npm obviously')
    const refused = await slack.waitFor(() => slack.ephemerals(BOB, channel)[0])
    await slack.user(ALICE).click(card, 'pnpm')

    expect(refused).toMatchObject({ thread_ts: card.ts, text: 'You are not allowed to answer this question.' })
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  })

  it('does not answer a batch or decide a tool approval: the person is told what to use instead', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const batchAsk = await bridge.open({ questions: [pm, { ...pm, id: 'node', question: 'Which Node?' }] })
    const batch = await postedMessage(slack, channel)
    await slack.user(ALICE).reply(batch, 'pnpm and 22')
    const approval = await bridge.openApproval({ toolName: 'bash', arguments: '{"command":"make deploy"}' })
    await slack.user(ALICE).reply(approval.message!, 'yes go ahead')

    const told = await slack.waitFor(() => (slack.ephemerals(ALICE, channel).length === 2 ? slack.ephemerals(ALICE, channel) : undefined))
    expect(told.map((e) => e.text)).toEqual([
      'A reply in the thread does not answer several questions at once: use *Answer…* on the message.',
      'A reply in the thread does not decide a tool approval: use *Allow once* or *Reject* on the message.',
    ])
    expect((await bridge.get(batchAsk.id))?.status).toBe('pending')
    expect((await bridge.get(approval.id))?.status).toBe('pending')
  })

  it('ignores a reply after the ask closed: a conversation in the thread is not an answer', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pm] })
    const card = await postedMessage(slack, channel)
    await slack.user(ALICE).click(card, 'npm')
    await answer

    const ack = await slack.user(BOB).reply(card, 'why npm?')

    expect(ack).toEqual({})
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(slack.ephemerals(BOB, channel)).toEqual([])
  })
})

describe('a reply in the thread without the history scopes', () => {
  it('never reaches the app (Slack sends no message event), so the question waits for a click', async () => {
    const { slack, bridge, channel } = await startRig('socket', {}, { scopes: DEFAULT_SCOPES.filter((scope) => !scope.endsWith(':history')) })
    const answer = bridge.provider.ask({ questions: [pm] })
    const card = await postedMessage(slack, channel)

    const ack = await slack.user(ALICE).reply(card, 'yarn')
    await slack.user(ALICE).click(card, 'pnpm')

    expect(ack).toBeUndefined()
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  })
})

describe('a reply in the thread, through the HTTP service', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
  })

  /** The service on its own stand-in, an ask posted over HTTP, its long-poll running, and its card. */
  async function askOverHttp(request: unknown) {
    const slack = await startSandbox()
    cleanups.push(() => slack.close())
    const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0' }), await serviceDeps(), silentLogger)
    cleanups.push(() => service.stop())
    const created = (await (await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })).json()) as { id: string }
    const polling = fetch(`${service.url}/v1/asks/${created.id}?wait=30`).then((response) => response.json())
    return { slack, created, polling, card: await postedMessage(slack, slack.defaultChannel) }
  }

  it('answers an ask posted over HTTP: the long-poll returns the reply as the Other answer, and who gave it, by name as a click does', async () => {
    const { slack, created, polling, card } = await askOverHttp({ questions: [pm] })

    await slack.user(ALICE).reply(card, 'bun, for the workspaces')

    expect(await polling).toEqual({
      id: created.id,
      status: 'answered',
      answer: { answers: [{ id: 'pm', selected: [], custom: 'bun, for the workspaces' }] },
      answeredBy: { id: ALICE, name: 'alice' },
    })
  })
  it('requests changes on a plan review posted over HTTP: the long-poll returns the reply as the feedback', async () => {
    const { slack, created, polling, card } = await askOverHttp(SAMPLE_ASKS['plan-review'])

    await slack.user(BOB).reply(card, 'Step 3 needs a rollback plan')

    expect(await polling).toMatchObject({ id: created.id, status: 'answered', answer: { answers: [{ selected: [], custom: 'Step 3 needs a rollback plan' }] }, answeredBy: { id: BOB, name: 'bob' } })
  })
})

describe('a reply in the thread, through the host relay', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
  })

  it('answers a question a harness host asked: the host receives the reply as the custom answer', async () => {
    const host = await startFakeHost()
    cleanups.push(() => host.close())
    const { slack, bridge, channel } = await startRig('socket')
    const relay = startRelay({ bridge, hosts: [host.url], logger: silentLogger, timing: FAST })
    cleanups.push(() => relay.stop())
    await host.waitForConnections(1)
    const { outcome } = host.ask('session-1', [pm])
    const card = await postedMessage(slack, channel)

    await slack.user(ALICE).reply(card, 'bun, from my phone')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'pm', selected: [], custom: 'bun, from my phone' }] } })
  })
})
