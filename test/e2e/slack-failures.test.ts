import { describe, expect, it } from 'vitest'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { MODES, startRig } from '../support/e2e.js'
import { postedMessage, settledMessage } from '../support/messages.js'

const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

describe.each(MODES)('Slack refusing or failing in %s mode', (mode) => {
  it('rejects with SLACK_API_ERROR naming channel_not_found and how to fix it', async () => {
    const { bridge } = await startRig(mode, { channel: 'C0DOESNOTEXIST' })

    const answer = bridge.provider.ask({ questions: [pm] })

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'SLACK_API_ERROR' })
    await expect(answer).rejects.toThrow(/channel_not_found.*SLACK_CHANNEL/)
  })

  it('rejects with not_in_channel and says to invite the app or add chat:write.public', async () => {
    const { bridge } = await startRig(mode, { channel: 'C0SANDBOX02' }, { scopes: DEFAULT_SCOPES.filter((scope) => scope !== 'chat:write.public') })

    const answer = bridge.provider.ask({ questions: [pm] })

    await expect(answer).rejects.toThrow(/not_in_channel.*invite the app.*chat:write\.public/)
  })

  it('rejects with invalid_auth and points at the bot token', async () => {
    const { slack, bridge } = await startRig(mode)
    slack.faults.inject('chat.postMessage', { error: 'invalid_auth' })

    await expect(bridge.provider.ask({ questions: [pm] })).rejects.toThrow(/invalid_auth.*SLACK_BOT_TOKEN/)
  })

  it('rides out a single 5xx with a retry, and fails clearly when Slack keeps failing', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    slack.faults.inject('chat.postMessage', { status: 503 })
    const record = await bridge.open({ questions: [pm] })
    expect(record.message?.channel).toBe(channel)

    slack.faults.inject('chat.postMessage', { status: 500 }, { times: 10 })
    await expect(bridge.open({ questions: [pm] })).rejects.toThrow(/http_500.*server error/)
  })

  it('delivers the question after a 429 on the first post, with no error reaching the caller', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    slack.faults.inject('chat.postMessage', { status: 429, retryAfter: 1 })

    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    await slack.user('U0SANDBOX01').click(message, 'pnpm')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect(slack.messages(channel)).toHaveLength(1)
  })

  it('keeps the answer when the message cannot be updated afterwards', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    slack.faults.inject('chat.update', { error: 'internal_error' }, { times: 5 })

    await slack.user('U0SANDBOX01').click(message, 'npm')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
  })

  it('fails with a network error when Slack cannot be reached, never hanging', async () => {
    const { slack, bridge } = await startRig(mode)
    await slack.close()

    await expect(bridge.open({ questions: [pm] })).rejects.toMatchObject({ code: 'SLACK_API_ERROR' })
  })

  it('delivers a burst of asks to one channel in order', async () => {
    const { slack, bridge, channel } = await startRig(mode)

    const records = await Promise.all(Array.from({ length: 4 }, (_, i) => bridge.open({ questions: [{ ...pm, id: `q${i}`, question: `Question number ${i}?` }] })))

    const posted = slack.messages(channel).map((m) => m.ts)
    expect(records.map((r) => r.message!.ts)).toEqual(posted)
    expect(posted).toHaveLength(4)
  })
})

describe('a Socket Mode reconnect', () => {
  it('keeps open asks, and a click after the socket was refreshed answers them', async () => {
    const { slack, bridge, channel } = await startRig('socket')
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    const opened = slack.callCount('apps.connections.open')
    slack.disconnectSockets('refresh_requested')
    // Refreshed: a new connection opened, and the old one is gone (the client may open the new one first, so the count need never reach 0).
    await slack.waitFor(() => (slack.callCount('apps.connections.open') > opened && slack.socketConnections() === 1 && bridge.health() === 'connected') || undefined, { timeoutMs: 10_000 })
    await slack.user('U0SANDBOX01').click(message, 'pnpm')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    await settledMessage(slack, channel, message.ts)
  })
})
