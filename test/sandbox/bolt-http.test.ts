import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { App, LogLevel } from '@slack/bolt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ShiftedClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { demoMessage, type Received, wireDemoApp } from './demo-app.js'

describe('a Bolt app in HTTP mode against the stand-in', () => {
  const clock = new ShiftedClock()
  let slack: Sandbox
  let app: App
  let received: Received
  let url: string
  let message: { channel: string; ts: string }

  beforeAll(async () => {
    slack = await startSandbox({ clock })
    app = new App({ token: slack.botToken, signingSecret: slack.signingSecret, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: slack.apiUrl } })
    received = wireDemoApp(app)
    const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`
    slack.deliverInteractionsTo({ kind: 'http', url })
    const posted = await app.client.chat.postMessage({ channel: slack.defaultChannel, ...demoMessage() })
    message = { channel: posted.channel!, ts: posted.ts! }
  })

  afterAll(async () => {
    await app?.stop()
    await slack?.close()
  })

  it('delivers a signed click that Bolt accepts and acknowledges', async () => {
    const ack = await slack.user('U0SANDBOX01').click(message, 'Approve')

    expect(ack).toEqual({})
    expect(received.actions.at(-1)).toMatchObject({ type: 'block_actions', actions: [{ action_id: 'approve', value: 'yes' }] })
  })

  it('carries ticked checkboxes to Submit in state.values', async () => {
    const bob = slack.user('U0SANDBOX02')
    await bob.toggle(message, 'Beta')

    await bob.click(message, 'Submit')

    const body = received.actions.at(-1) as { state: { values: Record<string, Record<string, { selected_options: { value: string }[] }>> } }
    expect(body.state.values.picks?.pick?.selected_options.map((o) => o.value)).toEqual(['1'])
  })

  it('returns the HTTP response body of a view_submission as the ack', async () => {
    const alice = slack.user('U0SANDBOX01')
    await alice.click(message, 'Other…')
    await slack.waitFor(() => alice.modal(), { message: 'the modal to open' })
    alice.fill('Answer', 'bad')

    const ack = await alice.submit()

    expect(ack).toEqual({ response_action: 'errors', errors: { answer_block: 'Say more than that' } })
    expect(alice.modal()).toBeDefined()
  })

  it('is refused by Bolt when the signature is forged', async () => {
    slack.deliverInteractionsTo({ kind: 'http', url, signingSecret: 'not-the-secret' })
    const before = received.actions.length

    const click = slack.user('U0SANDBOX01').click(message, 'Approve')

    await expect(click).rejects.toMatchObject({ name: 'SandboxError', code: 'DELIVERY_REFUSED', message: expect.stringContaining('HTTP 401') })
    expect(received.actions).toHaveLength(before)
    slack.deliverInteractionsTo({ kind: 'http', url })
  })

  it('is refused by Bolt when the request timestamp is older than five minutes (a replay)', async () => {
    const before = received.actions.length
    clock.advance(-6 * 60 * 1000)

    const click = slack.user('U0SANDBOX01').click(message, 'Approve')

    await expect(click).rejects.toMatchObject({ code: 'DELIVERY_REFUSED', message: expect.stringContaining('HTTP 401') })
    clock.advance(6 * 60 * 1000)
    expect(received.actions).toHaveLength(before)
  })
})

describe('HTTP delivery', () => {
  it('signs each request as v0=hex(HMAC_SHA256(secret, "v0:" + timestamp + ":" + raw body)) over a form-encoded payload', async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = []
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const slack = await startSandbox({ deliverTo: { kind: 'http', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events` } })
    try {
      const posted = slack.workspace.post({ channel: slack.defaultChannel, user: 'U0SANDBOXBOT', text: 'x', blocks: [{ type: 'actions', block_id: 'b', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }] }] })

      await slack.user('U0SANDBOX01').click(posted, 'Go')

      const [request] = seen
      const timestamp = String(request!.headers['x-slack-request-timestamp'])
      const expected = `v0=${createHmac('sha256', slack.signingSecret).update(`v0:${timestamp}:${request!.body}`).digest('hex')}`
      expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded')
      expect(request!.headers['x-slack-signature']).toBe(expected)
      expect(JSON.parse(new URLSearchParams(request!.body).get('payload')!)).toMatchObject({ type: 'block_actions', actions: [{ action_id: 'go' }] })
    } finally {
      await slack.close()
      server.close()
    }
  })
})
