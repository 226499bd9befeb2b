import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SlackBridge } from '../../src/bridge/types.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import type { AskUserQuestionItem } from '../../src/contract/index.js'
import { startRelay, type Relay } from '../../src/relay/index.js'
import { startRig } from '../support/e2e.js'
import { startFakeHost, type FakeHost, type FakeHostOptions } from '../support/fake-host.js'
import { postedMessage, visibleText } from '../support/messages.js'
import { recordingLogger } from './support/recording-logger.js'
import { FAST, COLOR } from './support/fixtures.js'

// End to end: the fake harness host, the relay, the real bridge (real Bolt
// in Socket Mode) and the local Slack stand-in, with a scripted person
// clicking in Slack.

const ALICE = 'U0SANDBOX01'

const LANGS: AskUserQuestionItem = { id: 'langs', question: 'Which languages?', multiSelect: true, options: [{ label: 'TypeScript' }, { label: 'Rust' }, { label: 'Go' }] }

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

/** The message with that ts once its text matches (a relayed answer says "Delivering…" until the host accepts it). */
function messageMatching(slack: Sandbox, channel: string, ts: string, pattern: RegExp) {
  return slack.waitFor(() => {
    const message = slack.messages(channel).find((m) => m.ts === ts)
    return message && pattern.test(visibleText(message)) ? message : undefined
  }, { message: `message ${ts} to match ${pattern}` })
}

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

describe('relay end to end: tool approvals', () => {
  it('shows the command being approved in a code block, literally, with no live mention or link', async () => {
    const { host, slack, channel, alice } = await connected()
    const command = 'rm -rf ../outside/cache && echo <!channel> <@U0SANDBOX01> <https://evil.example|docs.example>'
    const { outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'mock-call-1', reason: 'The target lives outside the workspace.', arguments: { command } })
    const card = await postedMessage(slack, channel)

    expect(JSON.stringify(card.blocks)).toContain('rich_text_preformatted')
    // Laid out for a phone across lines continued with ` \` (the shell's own continuation), otherwise literal.
    const asOneLine = (text: string) => text.replaceAll(' \\\n  ', ' ')
    expect(asOneLine(visibleText(card))).toContain(command)
    expect(JSON.stringify(card.blocks)).not.toMatch(/"type":"(user|broadcast|link|usergroup)"/)
    await alice.click(card, 'Allow once')

    expect(await outcome).toMatchObject({ kind: 'decided', outcome: 'allowed-once' })
    expect(asOneLine(visibleText(await messageMatching(slack, channel, card.ts, /Allowed once by/)))).toContain(command)
  })

  it('draws the card again with the command when the tool call arrives after the card was posted, without blaming a late connection', async () => {
    const { host, slack, channel, alice } = await connected()
    const { outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-7', reason: 'The target lives outside the workspace.' })
    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toMatch(/has not seen this call’s arguments yet/)
    expect(visibleText(card)).not.toMatch(/connected after/)

    host.sessionEvent('session-2', { type: 'tool/call', data: { callId: 'call-7', name: 'bash', arguments: JSON.stringify({ command: 'touch ../outside/cache' }) } })

    const updated = await messageMatching(slack, channel, card.ts, /touch \.\.\/outside\/cache/)
    expect(visibleText(updated)).not.toMatch(/has not seen/)
    await alice.click(updated, 'Allow once')
    expect(await outcome).toMatchObject({ kind: 'decided', outcome: 'allowed-once' })
  })

  it('leaves a card alone when its tool call arrives for another tool or another session', async () => {
    const { host, slack, channel } = await connected()
    host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-8' })
    const card = await postedMessage(slack, channel)

    host.sessionEvent('session-3', { type: 'tool/call', data: { callId: 'call-8', name: 'bash', arguments: JSON.stringify({ command: 'echo other session' }) } })
    host.sessionEvent('session-2', { type: 'tool/call', data: { callId: 'call-8', name: 'write_file', arguments: JSON.stringify({ path: 'x' }) } })
    host.sessionEvent('session-2', { type: 'tool/call', data: { callId: 'call-9', name: 'bash', arguments: JSON.stringify({ command: 'echo marker' }) } })
    host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-9' })
    await slack.waitFor(() => slack.messages(channel).find((m) => m.ts !== card.ts && visibleText(m).includes('echo marker')))

    const same = slack.messages(channel).find((m) => m.ts === card.ts)!
    expect(visibleText(same)).toMatch(/has not seen this call’s arguments yet/)
    expect(visibleText(same)).not.toMatch(/other session|"path"/)
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

})

describe('relay end to end: settled elsewhere and restarts', () => {
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

})
