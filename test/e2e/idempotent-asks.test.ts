import { afterEach, describe, expect, it } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { connectToService } from '../../src/index.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { cleanEnv, cliSuite, runCli } from '../cli/cli-process.js'
import { interactiveElements, settledMessage, visibleMessage, visibleText } from '../support/messages.js'
import { sandboxEnv } from '../support/sandbox-env.js'

// Issue 39 (1): an ask made with an Idempotency-Key is not a relayed request.
// Nothing is left to deliver once the agent has the answer, so its card must
// say who answered what, never "Delivering … to the host".

const ALICE = 'U0SANDBOX01'
const KEY = 'k'.repeat(32)
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }
const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch(() => undefined)
})

/** The real service (real bridge, real Bolt, Socket Mode) on a stand-in the test clicks in. */
async function serviceOnSandbox(): Promise<{ slack: Sandbox; service: RunningService }> {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  const config = configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', DSH_SLACK_API_KEY: KEY, PORT: '0' })
  const service = await startService(config, await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  return { slack, service }
}

async function post(service: RunningService, body: unknown, idempotencyKey: string) {
  const response = await fetch(`${service.url}/v1/asks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

async function waitFor(service: RunningService, id: string) {
  const response = await fetch(`${service.url}/v1/asks/${id}?wait=30`, { headers: { authorization: `Bearer ${KEY}` } })
  return (await response.json()) as Record<string, any>
}

/** The card once its controls are gone, after a moment in which a wrong later update would have landed. */
async function finalCard(slack: Sandbox, ts: string): Promise<StoredMessage> {
  await settledMessage(slack, slack.defaultChannel, ts)
  await new Promise((resolve) => setTimeout(resolve, 300))
  return slack.messages(slack.defaultChannel).find((message) => message.ts === ts)!
}

describe('an ask posted with an Idempotency-Key, settled in Slack', () => {
  it('gives the agent the answer and its card says who answered what, with no "Delivering" and no controls', async () => {
    const { slack, service } = await serviceOnSandbox()
    const created = await post(service, { questions: [pm] }, 'answer-1')
    const message = await visibleMessage(slack, slack.defaultChannel)

    await slack.user(ALICE).click(message, 'npm')
    const settled = await waitFor(service, created.body.id)
    const card = await finalCard(slack, message.ts)

    expect(settled).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'pm', selected: ['npm'] }] }, answeredBy: { id: ALICE } })
    expect(visibleText(card)).toContain(ALICE)
    expect(visibleText(card)).toContain('npm')
    expect(visibleText(card)).not.toMatch(/deliver/i)
    expect(interactiveElements(card)).toEqual([])
  })

  it('shows a plan approved with its Approve button as approved by the person, not as an approval being delivered', async () => {
    const { slack, service } = await serviceOnSandbox()
    const created = await post(service, { questions: [planReviewQuestion('# Plan\n\n1. Add a cache.')] }, 'plan-1')
    const card = await visibleMessage(slack, slack.defaultChannel)

    await slack.user(ALICE).click(card, 'Approve')
    const settled = await waitFor(service, created.body.id)
    const final = await finalCard(slack, card.ts)

    expect(settled).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } })
    expect(visibleText(final)).toMatch(/Approved by/)
    expect(visibleText(final)).toContain(ALICE)
    expect(visibleText(final)).not.toMatch(/deliver/i)
  })

  it('shows a dismissal as dismissed by the person, not as being delivered', async () => {
    const { slack, service } = await serviceOnSandbox()
    const created = await post(service, { questions: [pm] }, 'dismiss-1')
    const card = await visibleMessage(slack, slack.defaultChannel)

    await slack.user(ALICE).click(card, 'Dismiss')
    const settled = await waitFor(service, created.body.id)
    const final = await finalCard(slack, card.ts)

    expect(settled).toMatchObject({ status: 'cancelled', error: { code: 'ASK_CANCELLED' } })
    expect(visibleText(final)).toMatch(/dismissed/i)
    expect(visibleText(final)).toContain(ALICE)
    expect(visibleText(final)).not.toMatch(/deliver/i)
  })

  it('still shows who answered after a retried POST with the same key returned the same ask', async () => {
    const { slack, service } = await serviceOnSandbox()
    const created = await post(service, { questions: [pm] }, 'retried-1')
    const retried = await post(service, { questions: [pm] }, 'retried-1')
    const message = await visibleMessage(slack, slack.defaultChannel)

    await slack.user(ALICE).click(message, 'pnpm (Recommended)')
    await waitFor(service, created.body.id)
    const card = await finalCard(slack, message.ts)

    expect(retried.body.id).toBe(created.body.id)
    expect(slack.messages(slack.defaultChannel)).toHaveLength(1)
    expect(visibleText(card)).toContain(ALICE)
    expect(visibleText(card)).not.toMatch(/deliver/i)
  })
})

describe('the thin client (connectToService), which sends an Idempotency-Key with every ask', () => {
  it('resolves with the answer and the card says who answered, with no "Delivering"', async () => {
    const { slack, service } = await serviceOnSandbox()
    const connection = connectToService({ url: service.url, apiKey: KEY })
    cleanups.push(() => connection.stop())

    const answer = connection.provider.ask({ questions: [pm] })
    const message = await visibleMessage(slack, slack.defaultChannel)
    await slack.user(ALICE).click(message, 'npm')

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
    const card = await finalCard(slack, message.ts)
    expect(visibleText(card)).toContain(ALICE)
    expect(visibleText(card)).not.toMatch(/deliver/i)
  })
})

describe('dsh-slack ask --url', () => {
  const suite = cliSuite('dsh-slack-idempotent-')

  it('prints the answer and the card says who answered, with no "Delivering"', async () => {
    const { slack, service } = await serviceOnSandbox()
    const run = runCli(suite.main, ['ask', '--url', service.url], { env: cleanEnv({ DSH_SLACK_API_KEY: KEY }), cwd: suite.cwd, stdin: JSON.stringify({ questions: [pm] }) })
    suite.running.push(run)

    const message = await visibleMessage(slack, slack.defaultChannel)
    await slack.user(ALICE).click(message, 'npm')

    expect(await run.exited).toBe(0)
    expect(JSON.parse(run.stdout())).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
    const card = await finalCard(slack, message.ts)
    expect(visibleText(card)).toContain(ALICE)
    expect(visibleText(card)).not.toMatch(/deliver/i)
  })
})
