/**
 * A session's end archives its code channel (decision 0078), end to end:
 * real bridges (real Bolt, real Web API client) on the stand-in, two of
 * them on one SQLite file as two instances of one service.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SlackBridge } from '../../src/bridge/types.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import { startRelay } from '../../src/relay/index.js'
import { recordingLogger, startRig } from '../support/e2e.js'
import { startFakeHost } from '../support/fake-host.js'
import { postedMessage } from '../support/messages.js'
import { FAST } from '../relay/support/fixtures.js'
import { codeChannelOfSession } from '../support/code-channels.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const SESSION = 'ses_78_end'
const SCOPES = [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write']
const PLAN = '# Rotate the keys\n\n1. Issue the new key\n2. Roll the services\n3. Revoke the old key'

const dirs: string[] = []
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true })
})

/** Two instances of one service: two bridges on one state file and one stand-in. */
async function twoInstances() {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-h3-'))
  dirs.push(dir)
  const state = join(dir, 'asks.sqlite')
  const firstLog = recordingLogger()
  const { slack, bridge: first, restartBridge } = await startRig('socket', { state, logger: firstLog }, { scopes: SCOPES })
  const secondLog = recordingLogger()
  const second = await restartBridge({ logger: secondLog })
  return { slack, first, second, firstLog, secondLog }
}

/** Opens a plan review of the session through `bridge`, and returns its card once posted. */
async function planReview(slack: Sandbox, bridge: SlackBridge, plan = PLAN) {
  const before = slack.messages(slack.defaultChannel).length
  const record = await bridge.open({ questions: [planReviewQuestion(plan)], agent: { id: SESSION, title: 'key-rotation' } })
  await slack.waitFor(() => slack.messages(slack.defaultChannel).length > before)
  return { record, card: await postedMessage(slack, slack.defaultChannel) }
}

function codeChannelOf(slack: Sandbox) {
  return codeChannelOfSession(slack, SESSION)
}

async function placedCanvas(slack: Sandbox) {
  return slack.waitFor(() => {
    const channel = codeChannelOf(slack)
    return channel && channel.views.some((v) => v.type === 'canvas') && channel.contextBar.length > 0 ? channel : undefined
  })
}

describe('the end of an agent session with a code channel', () => {
  it('archives the channel from another instance, with a summary Slack shares in the card’s thread; ending it again changes nothing', async () => {
    const { slack, first, second } = await twoInstances()
    const { record, card } = await planReview(slack, first)
    const channel = await placedCanvas(slack)
    await slack.user(BOB).click(card, /Approve/)
    await first.waitForSettlement(record.id, 10_000)

    // The second instance never saw this review: it finds the session's channel through the shared store and Slack.
    const ended = await second.sessionEnded!(SESSION)

    expect(ended).toMatchObject({ kind: 'archived', channel: channel.id })
    expect(codeChannelOf(slack)).toMatchObject({ archived: true, summaryMessage: { messageTs: ended.kind === 'archived' ? ended.summaryTs : '' } })
    const summary = 'The agent session ended. Its last plan review: Plan approved by bob (U0SANDBOX02).'
    expect(slack.messages(channel.id).at(-1)?.text).toBe(summary)
    await slack.waitFor(() => slack.latestMessage(slack.defaultChannel, { thread: card.ts })?.text === summary || undefined)

    expect(await first.sessionEnded!(SESSION)).toEqual({ kind: 'already-archived', channel: channel.id })
    expect(await second.sessionEnded!(SESSION)).toMatchObject({ kind: 'already-archived' })
    expect(slack.messages(channel.id).filter((m) => m.text === summary)).toHaveLength(1)
  })

  it('says a review left open when the session ended, and posts nothing more when that review is then withdrawn', async () => {
    const { slack, first, firstLog } = await twoInstances()
    const { record } = await planReview(slack, first)
    const channel = await placedCanvas(slack)

    await first.sessionEnded!(SESSION)
    await first.abort(record.id)
    await first.waitForSettlement(record.id, 10_000)

    expect(slack.messages(channel.id).map((m) => m.text)).toEqual(['The agent session ended. Its last plan review: Plan review left open.'])
    expect(firstLog.lines.filter((line) => line.startsWith('warn'))).toEqual([])
  })

  it('touches no code channel for a session that never had a plan review', async () => {
    const { slack, first } = await twoInstances()
    await first.open({ questions: [{ id: 'q', question: 'Which region?', options: [{ label: 'eu' }, { label: 'us' }] }], agent: { id: SESSION } })

    expect(await first.sessionEnded!(SESSION)).toEqual({ kind: 'no-code-channel' })
    expect(await first.sessionEnded!('ses_never_seen')).toEqual({ kind: 'no-code-channel' })
    expect(slack.codeChannels.channels.size).toBe(0)
  })

  it('leaves Slack alone when the operator turned code channels off', async () => {
    const { slack, bridge } = await startRig('socket', { codeChannels: 'off' }, { scopes: SCOPES })
    await planReview(slack, bridge)

    expect(await bridge.sessionEnded!(SESSION)).toEqual({ kind: 'off', why: 'turned off (codeChannels: off, DSH_SLACK_CODE_CHANNELS=off)' })
    expect(slack.codeChannels.channels.size).toBe(0)
  })
})

describe('a session that sends a plan after its code channel was archived', () => {
  it('keeps that review on the card and its thread, on the instance that archived and on one that did not; the archived canvas is unchanged', async () => {
    const { slack, first, second, firstLog, secondLog } = await twoInstances()
    await planReview(slack, first)
    const channel = await placedCanvas(slack)
    await first.sessionEnded!(SESSION)
    const canvasId = channel.views.find((v) => v.type === 'canvas')!.canvasId!
    const before = slack.codeChannels.canvas(canvasId).sections.map((s) => s.markdown)

    const onSecond = await planReview(slack, second, `${PLAN}\n4. Tell the on-call`)
    await slack.waitFor(() => secondLog.lines.find((line) => line.includes('is archived (the session had ended)')))
    const onFirst = await planReview(slack, first, `${PLAN}\n4. Tell the on-call, again`)
    await slack.waitFor(() => firstLog.lines.find((line) => line.includes(`ask ${onFirst.record.id}: the plan stays in the card's thread: session ${SESSION} ended`)))

    expect(slack.codeChannels.canvas(canvasId).sections.map((s) => s.markdown)).toEqual(before)
    expect(slack.codeChannels.channels.size).toBe(1)
    const alice = slack.user(ALICE)
    await alice.click(onSecond.card, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'Say who is on call')
    await alice.submit()
    const settled = await second.waitForSettlement(onSecond.record.id, 10_000)
    expect(settled?.settlement?.answer?.answers[0]?.custom).toBe('Say who is on call')
  })
})

describe('a host session archived in the web UI, through the relay', () => {
  it('archives its code channel with the summary in the card’s thread; sessions archived before the relay connected are left alone', async () => {
    const host = await startFakeHost()
    const { slack, bridge, channel } = await startRig('socket', {}, { scopes: SCOPES })
    host.archiveSession('host-session-old')
    const logger = recordingLogger()
    const ended: string[] = []
    const watched: SlackBridge = { ...bridge, sessionEnded: (id, door) => (ended.push(id), bridge.sessionEnded!(id, door)) }
    const relay = startRelay({ bridge: watched, hosts: [host.url], logger, timing: FAST })
    try {
      await host.waitForConnections(1)
      await slack.waitFor(() => host.hostStreamConnections() === 1 || undefined)
      const review = host.ask('host-session-9', [planReviewQuestion(PLAN)])
      const code = await slack.waitFor(() => {
        const found = codeChannelOfSession(slack, 'host-session-9')
        return found && found.contextBar.length > 0 ? found : undefined
      })
      const card = slack.messages(channel).find((m) => m.ts === code.origin?.ts)!
      await slack.user(BOB).click(card, /Approve/)
      await review.outcome

      host.archiveSession('host-session-9')

      await slack.waitFor(() => slack.codeChannels.channels.get(code.id)?.archived || undefined)
      const summary = 'The agent session ended. Its last plan review: Plan approved by bob (U0SANDBOX02).'
      expect(slack.messages(code.id).at(-1)?.text).toBe(summary)
      await slack.waitFor(() => slack.messages(channel).some((m) => m.thread_ts === card.ts && m.text === summary) || undefined)
      await slack.waitFor(() => logger.lines.find((line) => /session host-session-9 was archived on the host; its code channel C\w+ is archived/.test(line)))
      expect(ended).toEqual(['host-session-9'])
    } finally {
      await relay.stop()
      await host.close()
    }
  })
})
