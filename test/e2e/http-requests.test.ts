import { createHmac } from 'node:crypto'
import { request as httpRequest } from 'node:http'
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

/**
 * Sends headers and then `sent` bytes of a body, without ending it, and
 * resolves with the status the server answers with meanwhile: a server that
 * waited for the whole body would never answer.
 */
function answerBeforeTheRest(url: string, headers: Record<string, string>, sent: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, body })
      })
    })
    // The server may close the connection once it has answered.
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)))
    req.write(sent)
  })
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

  it('refuses a request signed with the right secret but an altered body', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const signedBody = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()
    const altered = signedBody.replace('U0SANDBOX01', 'U0SANDBOX02')

    const response = await post(bridge.slackEventsUrl!, altered, signedHeaders(slack.signingSecret, signedBody))

    expect(altered).not.toBe(signedBody)
    expect(response.status).toBe(401)
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('refuses a signature of another version (v1=), even one computed with the right secret', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()
    const timestamp = Math.floor(Date.now() / 1000)
    const v1 = `v1=${createHmac('sha256', slack.signingSecret).update(`v1:${timestamp}:${body}`).digest('hex')}`

    const response = await post(bridge.slackEventsUrl!, body, { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': v1 })

    expect(response.status).toBe(401)
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('refuses a correctly signed request whose timestamp is a day in the future, so it cannot be replayed until then', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders(slack.signingSecret, body, Math.floor(Date.now() / 1000) + 24 * 3600))

    expect(response.status).toBe(401)
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('accepts a timestamp a few minutes ahead, as a skewed clock gives', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const body = new URLSearchParams({ payload: JSON.stringify(tapPayload(record.id, channel, record.message!.ts)) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders(slack.signingSecret, body, Math.floor(Date.now() / 1000) + 3 * 60))

    expect(response.status).toBe(200)
  })

  it('refuses an unsigned body declared at 256 MiB with 413 before it is sent', async () => {
    const { bridge } = await startRig('http')

    const reply = await answerBeforeTheRest(bridge.slackEventsUrl!, { 'content-length': String(256 * 1024 * 1024) }, Buffer.alloc(64 * 1024, 'a'))

    expect(reply.status).toBe(413)
  })

  it('refuses a chunked body with 413 as soon as it passes 1 MiB, without waiting for its end', async () => {
    const { bridge } = await startRig('http')

    const reply = await answerBeforeTheRest(bridge.slackEventsUrl!, { 'transfer-encoding': 'chunked' }, Buffer.alloc(1024 * 1024 + 1, 'a'))

    expect(reply.status).toBe(413)
  })

  it('accepts a signed body just under the cap, so real payloads are never refused for size', async () => {
    const { slack, bridge, channel } = await startRig('http')
    const record = await bridge.open({ questions: [pm] })
    const payload = { ...tapPayload(record.id, channel, record.message!.ts), padding: 'x'.repeat(900 * 1024) }
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString()

    const response = await post(bridge.slackEventsUrl!, body, signedHeaders(slack.signingSecret, body))

    expect(response.status).toBe(200)
  })
})
