import { describe, expect, it } from 'vitest'
import { encodeActionId } from '../../blocks/ids.js'
import { signRequest } from '../../src/sandbox/index.js'
import { startRig } from '../support/e2e.js'
import { postedMessage, settledMessage } from '../support/messages.js'

const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** A block_actions payload as Slack sends it for a tap on option 0 of an ask. */
function tapPayload(askId: string, channel: string, ts: string, user = 'U0SANDBOX01') {
  return {
    type: 'block_actions',
    user: { id: user, username: 'alice', name: 'alice', team_id: 'T0SANDBOX01' },
    team: { id: 'T0SANDBOX01', domain: 'sandbox' },
    api_app_id: 'A0SANDBOX01',
    trigger_id: '1.2.abc',
    container: { type: 'message', message_ts: ts, channel_id: channel, is_ephemeral: false },
    channel: { id: channel, name: 'agents' },
    message: { type: 'message', ts, text: 'question' },
    response_url: 'http://127.0.0.1:9/response',
    actions: [{ type: 'button', action_id: encodeActionId({ kind: 'option', askId, question: 0, option: 0 }), block_id: 'b', value: '0', action_ts: '1.2' }],
  }
}

async function post(url: string, body: string, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body })
}

function signedHeaders(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signRequest(secret, timestamp, body) }
}

describe('requests to the HTTP-mode endpoint', () => {
  it('refuses a request with a forged signature and changes nothing', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders('not-the-signing-secret', body))

    expect(response.status).toBe(401)
    expect((await bridge.get(record.id))?.status).toBe('pending')
    expect(slack.messages(channel)).toHaveLength(1)
  })

  it('refuses a correctly signed request replayed after five minutes', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders(slack.signingSecret, body, Math.floor(Date.now() / 1000) - 6 * 60))

    expect(response.status).toBe(401)
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('accepts the same request correctly signed and fresh', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders(slack.signingSecret, body))

    expect(response.status).toBe(200)
    const settled = await bridge.waitForSettlement(record.id, 2000)
    expect(settled?.settlement?.answer).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
  })

  it('answers a stale click on a withdrawn question with a private notice and changes nothing', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    await postedMessage(slack, channel)
    await bridge.abort(record.id)
    const withdrawn = await settledMessage(slack, channel, record.message!.ts)
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders(slack.signingSecret, body))

    expect(response.status).toBe(200)
    const notice = await slack.waitFor(() => slack.ephemerals('U0SANDBOX01').at(-1))
    expect(notice.text).toMatch(/closed/)
    expect((await bridge.get(record.id))?.status).toBe('aborted')
    expect(slack.messages(channel).find((m) => m.ts === record.message!.ts)?.blocks).toEqual(withdrawn.blocks)
  })
})
