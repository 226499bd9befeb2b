import { App, LogLevel } from '@slack/bolt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { demoMessage, type Received, wireDemoApp } from './demo-app.js'

describe('a Bolt app in Socket Mode against the stand-in', () => {
  let slack: Sandbox
  let app: App
  let received: Received
  let message: { channel: string; ts: string }

  beforeAll(async () => {
    slack = await startSandbox()
    app = new App({ token: slack.botToken, appToken: slack.appToken, socketMode: true, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: slack.apiUrl } })
    received = wireDemoApp(app)
    await app.start()
    const posted = await app.client.chat.postMessage({ channel: slack.defaultChannel, ...demoMessage() })
    message = { channel: posted.channel!, ts: posted.ts! }
  })

  afterAll(async () => {
    await app?.stop()
    await slack?.close()
  })

  it('connects through apps.connections.open and stays connected', () => {
    expect(slack.socketConnections()).toBe(1)
  })

  it('stores the posted message with its blocks', () => {
    const stored = slack.latestMessage(slack.defaultChannel)

    expect(stored).toMatchObject({ ts: message.ts, text: 'Ship it?', user: 'U0SANDBOXBOT', bot_id: 'B0SANDBOX01' })
    expect(stored?.blocks).toHaveLength(3)
  })

  it('delivers a button click with the fields Slack sends', async () => {
    const ack = await slack.user('U0SANDBOX01').click(message, 'Approve')

    const body = received.actions.at(-1)!
    expect(ack).toEqual({})
    expect(body).toMatchObject({
      type: 'block_actions',
      user: { id: 'U0SANDBOX01', username: 'alice', name: 'alice', team_id: 'T0SANDBOX01' },
      team: { id: 'T0SANDBOX01', domain: 'sandbox' },
      api_app_id: 'A0SANDBOX01',
      container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
      channel: { id: message.channel, name: 'agents' },
      message: { ts: message.ts, text: 'Ship it?' },
      actions: [{ type: 'button', action_id: 'approve', block_id: 'choices', value: 'yes', text: { type: 'plain_text', text: 'Approve' } }],
    })
    expect(body.trigger_id).toEqual(expect.stringMatching(/^\d+\.\d+\.[0-9a-f]+$/))
    expect(body.response_url).toEqual(expect.any(String))
    expect((body.actions as { action_ts: string }[])[0]!.action_ts).toMatch(/^\d+\.\d{6}$/)
  })

  it('reports ticked checkboxes in state.values for that user only', async () => {
    const alice = slack.user('U0SANDBOX01')
    await alice.toggle(message, 'Alpha')
    await alice.toggle(message, 'Gamma')
    await slack.user('U0SANDBOX02').toggle(message, 'Beta')

    await alice.click(message, 'Submit')

    const body = received.actions.at(-1) as { user: { id: string }; state: { values: Record<string, Record<string, { selected_options: { value: string }[] }>> } }
    expect(body.user.id).toBe('U0SANDBOX01')
    expect(body.state.values.picks?.pick?.selected_options.map((o) => o.value)).toEqual(['0', '2'])
  })

  it('sends the checkbox change itself as a block_actions payload', async () => {
    await slack.user('U0SANDBOX01').toggle(message, 'Beta')

    const body = received.actions.at(-1) as { actions: Record<string, unknown>[] }
    expect(body.actions[0]).toMatchObject({ type: 'checkboxes', action_id: 'pick', block_id: 'picks' })
    expect((body.actions[0]!.selected_options as { value: string }[]).map((o) => o.value)).toEqual(['0', '2', '1'])
  })

  it('opens the modal with the trigger_id of the click and hands it to the user who clicked', async () => {
    const bob = slack.user('U0SANDBOX02')

    await bob.click(message, 'Other…')
    const view = await slack.waitFor(() => bob.modal(), { message: 'the modal to open' })

    expect(view).toMatchObject({ callback_id: 'answer_modal', private_metadata: 'ask-1', title: { text: 'Your answer' } })
    expect(slack.modal('U0SANDBOX01')).toBeUndefined()
  })

  it('reads the response_action errors ack of a view_submission back and keeps the modal open', async () => {
    const bob = slack.user('U0SANDBOX02')
    bob.fill('Answer', 'bad')

    const ack = await bob.submit()

    expect(ack).toEqual({ response_action: 'errors', errors: { answer_block: 'Say more than that' } })
    expect(bob.modalErrors()).toEqual({ answer_block: 'Say more than that' })
    expect(bob.modal()).toBeDefined()
  })

  it('delivers the view_submission with the view, its metadata and the typed text, and closes on a bare ack', async () => {
    const bob = slack.user('U0SANDBOX02')
    bob.fill('Answer', 'ship on Friday')

    const ack = await bob.submit()

    const view = received.views.at(-1) as { callback_id: string; private_metadata: string; id: string; hash: string; state: { values: Record<string, Record<string, { value: string }>> } }
    expect(ack).toEqual({})
    expect(view.callback_id).toBe('answer_modal')
    expect(view.private_metadata).toBe('ask-1')
    expect(view.id).toMatch(/^V/)
    expect(view.hash).toEqual(expect.any(String))
    expect(view.state.values.answer_block?.answer).toEqual({ type: 'plain_text_input', value: 'ship on Friday' })
    expect(bob.modal()).toBeUndefined()
  })

  it('refuses to submit a modal whose required input is empty, as Slack’s client does', async () => {
    const alice = slack.user('U0SANDBOX01')
    await alice.click(message, 'Other…')
    await slack.waitFor(() => alice.modal(), { message: 'the modal to open' })

    await expect(alice.submit()).rejects.toMatchObject({ name: 'SandboxError', code: 'INVALID_INPUT' })
  })

  it('sends view_closed when a notify_on_close modal is closed', async () => {
    const alice = slack.user('U0SANDBOX01')

    await alice.close()

    expect(received.closed.at(-1)).toMatchObject({ type: 'view_closed', view: { callback_id: 'answer_modal' }, is_cleared: false })
    expect(alice.modal()).toBeUndefined()
  })
})
