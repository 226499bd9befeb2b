import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SlackBridge } from '../../src/bridge/types.js'
import type { AskUserQuestionItem } from '../../src/contract/index.js'
import { startRelay, type Relay } from '../../src/relay/index.js'
import { startRig } from '../support/e2e.js'
import { startFakeHost, type FakeHost, type FakeHostOptions } from '../support/fake-host.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'
import { recordingLogger } from './support/recording-logger.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { FAST, COLOR } from './support/fixtures.js'

// End to end: the fake harness host, the relay, the real bridge (real Bolt
// in Socket Mode) and the local Slack stand-in, with a scripted person
// clicking in Slack.

const ALICE = 'U0SANDBOX01'
const SECRET = 'correct-horse-battery-staple'

const LANGS: AskUserQuestionItem = { id: 'langs', question: 'Which languages?', multiSelect: true, options: [{ label: 'TypeScript' }, { label: 'Rust' }, { label: 'Go' }] }

const PLAN_REVIEW: AskUserQuestionItem = planReviewQuestion('# Plan: add a cache\n\n1. Add `cache.ts` with an LRU map.\n2. Wire it into the **fetch** path.\n')

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function hostWith(options: FakeHostOptions = {}): Promise<FakeHost> {
  const host = await startFakeHost(options)
  cleanups.push(() => host.close())
  return host
}

function relay(bridge: SlackBridge, host: FakeHost, accessSecret?: string) {
  const logger = recordingLogger()
  const running: Relay = startRelay({ bridge, hosts: [accessSecret ? { url: host.url, accessSecret } : host.url], logger, timing: FAST })
  cleanups.push(() => running.stop())
  return { relay: running, logger }
}

async function connected(options: FakeHostOptions = {}, accessSecret?: string) {
  const host = await hostWith(options)
  const rig = await startRig('socket')
  const { relay: running, logger } = relay(rig.bridge, host, accessSecret)
  await host.waitForConnections(1)
  return { host, ...rig, relay: running, logger, alice: rig.slack.user(ALICE) }
}

describe('relay end to end: questions', () => {
  it('sends the exact answer a person taps in Slack to the host', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)
    expect(visibleText(message)).toContain('Which color do you prefer?')
    expect(visibleText(message)).toContain('session-1')

    await alice.click(message, 'Green')

    expect(await outcome).toEqual({ kind: 'answered', by: 'client', answer: { answers: [{ id: 'color', selected: ['Green'] }] } })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/Answered by/)
  })

  it('sends a multi-select answer ticked in Slack', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [LANGS])
    const message = await postedMessage(slack, channel)

    await alice.toggle(message, 'Go')
    await alice.toggle(message, 'TypeScript')
    await alice.click(message, /^Submit/)

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'langs', selected: ['TypeScript', 'Go'] }] } })
  })

  it('sends a multi-select answered with Other as a custom answer with nothing selected', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [LANGS])
    const message = await postedMessage(slack, channel)

    await alice.click(message, /Other/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'Zig, honestly')
    await alice.submit()

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'langs', selected: [], custom: 'Zig, honestly' }] } })
  })

  it('carries the ticks into the Other… box, so a typed answer keeps them as text instead of dropping them silently', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [LANGS])
    const message = await postedMessage(slack, channel)
    await alice.toggle(message, 'Go')
    await alice.toggle(message, 'TypeScript')

    await alice.click(message, /Other/)
    const modal = await slack.waitFor(() => alice.modal())
    expect(JSON.stringify(modal)).toContain('a typed answer replaces the ticks')
    await alice.submit()

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'langs', selected: [], custom: 'TypeScript, Go' }] } })
  })

  it('sends a dismissal as cancelled', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)

    await alice.click(message, 'Dismiss')

    expect(await outcome).toMatchObject({ kind: 'cancelled', by: 'client' })
  })
})

describe('relay end to end: plan reviews', () => {
  it('approves a plan with its Approve button', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [PLAN_REVIEW])
    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain('Plan: add a cache')

    await alice.click(card, 'Approve')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } })
  })

  it('sends requested changes as custom feedback', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [PLAN_REVIEW])
    const card = await postedMessage(slack, channel)

    await alice.click(card, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'Use the existing LRU package instead.')
    await alice.submit()

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'plan-review', selected: [], custom: 'Use the existing LRU package instead.' }] } })
  })
})

describe('relay end to end: tool approvals', () => {
  it('allows once from the approval card and shows who decided', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', reason: 'The target file lives outside the session workspace.', callId: 'mock-call-1' })
    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain('bash')
    expect(visibleText(card)).toContain('outside the session workspace')

    await alice.click(card, 'Allow once')

    expect(await outcome).toEqual({ kind: 'decided', outcome: 'allowed-once', by: 'client' })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toMatch(/Allowed once by/)
  })

  it('shows the command being approved in a code block, literally, with no live mention or link', async () => {
    const { host, slack, channel, alice } = await connected()
    const command = 'rm -rf ../outside/cache && echo <!channel> <@U0SANDBOX01> <https://evil.example|docs.example>'
    const { outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'mock-call-1', reason: 'The target lives outside the workspace.', arguments: { command } })
    const card = await postedMessage(slack, channel)

    expect(JSON.stringify(card.blocks)).toContain('rich_text_preformatted')
    expect(visibleText(card)).toContain(command)
    expect(JSON.stringify(card.blocks)).not.toMatch(/"type":"(user|broadcast|link|usergroup)"/)
    await alice.click(card, 'Allow once')

    expect(await outcome).toMatchObject({ kind: 'decided', outcome: 'allowed-once' })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(command)
  })

  it('puts the whole of a long command in the card’s thread and a readable start on the card', async () => {
    const { host, slack, channel } = await connected()
    const command = Array.from({ length: 200 }, (_, i) => `echo "step ${i} of a long generated script"`).join('\n')
    host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'mock-call-2', arguments: { command } })
    const card = await postedMessage(slack, channel)

    expect(visibleText(card)).toContain('the full text is in the thread')
    expect(visibleText(card)).not.toContain('step 199')
    const replies = await slack.waitFor(() => {
      const thread = slack.messages(channel).filter((m) => m.thread_ts === card.ts && m.ts !== card.ts)
      return thread.length > 0 && thread.map((m) => visibleText(m)).join('\n').includes('step 199') ? thread : undefined
      // Posts to one channel are paced (one a second), and the command takes a few parts.
    }, { timeoutMs: 15_000 })
    expect(replies.map((m) => visibleText(m)).join('\n')).toContain('step 0 of a long generated script')
  })

  it('rejects from the approval card', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash' })
    const card = await postedMessage(slack, channel)

    await alice.click(card, 'Reject')

    expect(await outcome).toEqual({ kind: 'decided', outcome: 'rejected', by: 'client' })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toMatch(/Rejected by/)
  })

  it('says "Rejected outside Slack" when the approval is rejected in the web UI', async () => {
    const { host, slack, channel } = await connected()
    const { rpcId } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash' })
    const card = await postedMessage(slack, channel)

    host.answerFromWebUi(rpcId, 'rejected')

    const final = visibleText(await settledMessage(slack, channel, card.ts))
    expect(final).toMatch(/Rejected outside Slack/)
    expect(final).not.toMatch(/Answered/)
  })
})

describe('relay end to end: settled elsewhere and restarts', () => {
  it('updates the message when the question is answered in the web UI first, and removes its controls', async () => {
    const { host, slack, channel } = await connected()
    const { rpcId } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)
    expect(interactiveElements(message).length).toBeGreaterThan(0)

    host.answerFromWebUi(rpcId, { answers: [{ id: 'color', selected: ['Blue'] }] })

    const final = visibleText(await settledMessage(slack, channel, message.ts))
    expect(final).toMatch(/Answered outside Slack/)
    expect(host.counters.responses).toBe(0)
  })

  it('says an answer was not delivered when the host settled the request unheard, never "answered outside Slack"', async () => {
    const { host, slack, channel, alice, relay: running } = await connected()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)
    await host.goDown()
    await slack.waitFor(() => running.status().hosts[0]?.state !== 'connected')
    host.answerFromWebUi(rpcId, { answers: [{ id: 'color', selected: ['Blue'] }] })

    await alice.click(message, 'Green')
    await host.comeUp()

    expect(await outcome).toMatchObject({ kind: 'answered', by: 'web-ui' })
    const final = await slack.waitFor(() => {
      const current = slack.messages(channel).find((m) => m.ts === message.ts)
      return current && /was not delivered/.test(visibleText(current)) ? current : undefined
    })
    expect(visibleText(final)).not.toMatch(/Answered/)
    expect(host.received.map((item) => item.receipt)).toEqual([{ accepted: false, reason: 'not-pending' }])
  })

  it('tells the card and, privately, the person when a host restart lost the question their queued answer was for', async () => {
    const { host, slack, channel, alice, relay: running } = await connected()
    const { outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)
    await host.goDown({ forgetPending: true })
    await slack.waitFor(() => running.status().hosts[0]?.state !== 'connected')

    await alice.click(message, 'Green')
    await slack.waitFor(() => running.status().hosts[0]?.outbox === 1)
    await host.comeUp()

    const final = await slack.waitFor(() => {
      const current = slack.messages(channel).find((m) => m.ts === message.ts)
      return current && /No longer open on the host/.test(visibleText(current)) ? current : undefined
    })
    expect(visibleText(final)).toMatch(/answer was not delivered/)
    expect(visibleText(final)).not.toMatch(/outside Slack/)
    expect(interactiveElements(final)).toEqual([])
    const notice = await slack.waitFor(() => slack.ephemerals(ALICE, channel).find((e) => /not delivered/.test(e.text)))
    expect(notice.text).toMatch(/no longer open on the host/)
    expect(await outcome).toEqual({ kind: 'forgotten' })
  })

  it('survives a host restart mid-question: reconnects, takes the replay without a second message, then answers', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)

    await host.restart()
    await host.waitForConnections(1)
    await alice.click(message, 'Blue')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'color', selected: ['Blue'] }] } })
    expect(slack.messages(channel).filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts)).toHaveLength(1)
    expect(host.counters.connections).toBe(2)
  })

  it('withdraws the message of a request the restarted host no longer holds', async () => {
    const { host, slack, channel } = await connected()
    host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)

    await host.restart({ forgetPending: true })

    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/No longer open/)
  })

  it('survives a dsh-slack restart on the same state file: no second message, and the old one still answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-relay-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const state = join(dir, 'state.sqlite')
    const host = await hostWith()
    const rig = await startRig('socket', { state, owner: 'service' })
    const first = relay(rig.bridge, host)
    await host.waitForConnections(1)
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(rig.slack, rig.channel)
    await first.relay.stop()
    await rig.bridge.stop()

    const bridge = await rig.restartBridge({ state, owner: 'service' })
    const second = relay(bridge, host)
    await host.waitForConnections(1)
    await rig.slack.waitFor(() => second.logger.text('debug').some((line) => line.includes(`request ${rpcId} is ask`)))
    await rig.slack.user(ALICE).click(message, 'Green')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'color', selected: ['Green'] }] } })
    expect(rig.slack.messages(rig.channel)).toHaveLength(1)
  })

  it('logs in with the access secret and answers through the cookie', async () => {
    const { host, slack, channel, alice } = await connected({ accessSecret: SECRET }, SECRET)
    const { outcome } = host.ask('session-1', [COLOR])
    const message = await postedMessage(slack, channel)

    await alice.click(message, 'Blue')

    expect(await outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.loginAttempts).toBe(1)
  })
})
