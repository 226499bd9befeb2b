import { WebSocket } from 'ws'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { webClient } from './clients.js'
import { startRawApp, type RawApp } from './raw-app.js'

function buttonMessage(slack: Sandbox): { channel: string; ts: string } {
  return slack.workspace.post({
    channel: slack.defaultChannel,
    user: 'U0SANDBOXBOT',
    text: 'x',
    blocks: [{ type: 'actions', block_id: 'b', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }] }],
  })
}

/** A bare Socket Mode connection that keeps every frame it gets and answers as `onFrame` says, once it has its hello. */
async function rawConnection(slack: Sandbox, onFrame: (frame: Record<string, unknown>, ws: WebSocket) => void): Promise<{ ws: WebSocket; frames: Record<string, unknown>[] }> {
  const { url } = await webClient(slack, slack.appToken).apps.connections.open()
  const ws = new WebSocket(url!)
  const frames: Record<string, unknown>[] = []
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>
    frames.push(frame)
    onFrame(frame, ws)
  })
  await slack.waitFor(() => frames.length > 0, { message: 'hello' })
  return { ws, frames }
}

describe('Socket Mode', () => {
  let slack: Sandbox
  const apps: RawApp[] = []

  beforeEach(async () => {
    slack = await startSandbox({ serverPingIntervalMs: 50 })
  })

  afterEach(async () => {
    for (const app of apps.splice(0)) await app.client.disconnect()
    await slack.close()
  })

  it('greets a connection with hello and reads an ack with its payload', async () => {
    const { ws, frames } = await rawConnection(slack, (frame, ws) => {
      if (frame.envelope_id) ws.send(JSON.stringify({ envelope_id: frame.envelope_id, payload: { seen: true } }))
    })

    const ack = await slack.user('U0SANDBOX01').click(buttonMessage(slack), 'Go')

    expect(frames[0]).toMatchObject({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0SANDBOX01' } })
    expect(frames[1]).toMatchObject({ type: 'interactive', accepts_response_payload: false, payload: { type: 'block_actions' } })
    expect(ack).toEqual({ seen: true })
    ws.close()
  })

  it('sends an event nobody acknowledged again, marked as a retry, as Slack does; a click it never sends again', async () => {
    // Only a retry is acknowledged: the first delivery of each envelope goes unanswered.
    const { ws, frames } = await rawConnection(slack, (frame, ws) => {
      if (frame.envelope_id && Number(frame.retry_attempt) > 0) ws.send(JSON.stringify({ envelope_id: frame.envelope_id }))
    })

    const opened = await slack.user('U0SANDBOX01').openHome().catch((error: { code?: string }) => error.code)
    const clicked = await slack.user('U0SANDBOX01').click(buttonMessage(slack), 'Go').catch((error: { code?: string }) => error.code)
    await slack.waitFor(() => frames.filter((frame) => frame.type === 'events_api').length >= 2 || undefined, { timeoutMs: 2_000, message: 'the retry' })

    const events = frames.filter((frame) => frame.type === 'events_api')
    expect([opened, clicked]).toEqual(['NOT_ACKNOWLEDGED', 'NOT_ACKNOWLEDGED'])
    expect(events.map((frame) => [frame.retry_attempt, frame.retry_reason])).toEqual([[0, ''], [1, 'timeout']])
    expect(events[1]!.payload).toEqual(events[0]!.payload)
    expect(frames.filter((frame) => frame.type === 'interactive')).toHaveLength(1)
    ws.close()
  }, 15_000)

  it('refuses a connection URL used twice', async () => {
    const app = await startRawApp(slack)
    apps.push(app)
    const used = (app.client as unknown as { connectionResponse: { url: string } }).connectionResponse.url

    const second = new WebSocket(used)
    const error = await new Promise<Error>((resolve) => second.on('error', resolve))

    expect(error.message).toContain('401')
  })

  it('keeps the real client connected through pings and pongs', async () => {
    const app = await startRawApp(slack)
    apps.push(app)

    await new Promise((resolve) => setTimeout(resolve, 400))

    expect(app.connects).toBe(1)
    expect(slack.socketConnections()).toBe(1)
  })

  it('sends disconnect with a reason and the client reconnects through apps.connections.open', async () => {
    const app = await startRawApp(slack)
    apps.push(app)

    slack.disconnectSockets('refresh_requested')
    await slack.waitFor(() => app.connects === 2 && slack.socketConnections() === 1, { timeoutMs: 3000, message: 'the client to reconnect' })

    expect(await slack.user('U0SANDBOX01').click(buttonMessage(slack), 'Go')).toEqual({})
  })

  it('delivers each payload to exactly one of several connections', async () => {
    const first = await startRawApp(slack)
    const second = await startRawApp(slack)
    apps.push(first, second)
    const message = buttonMessage(slack)

    for (let i = 0; i < 4; i++) await slack.user('U0SANDBOX01').click(message, 'Go')

    expect(first.bodies.length + second.bodies.length).toBe(4)
    expect(first.bodies.length).toBeGreaterThan(0)
    expect(second.bodies.length).toBeGreaterThan(0)
  })

  it('fails a click nobody is connected to receive', async () => {
    await expect(slack.user('U0SANDBOX01').click(buttonMessage(slack), 'Go')).rejects.toMatchObject({ name: 'SandboxError', code: 'NO_RECEIVER' })
  })
})
