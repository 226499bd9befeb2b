import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox, type WorkspaceChange } from '../../src/sandbox/index.js'
import { webClient } from './clients.js'
import { startRawApp, type RawApp } from './raw-app.js'

type Obj = Record<string, unknown>

const plain = (text: string): Obj => ({ type: 'plain_text', text })
const option = (text: string, value: string): Obj => ({ text: plain(text), value })

describe('the scripted user', () => {
  let slack: Sandbox
  let app: RawApp
  let answers: ((body: Obj) => Obj | undefined)[]

  beforeEach(async () => {
    slack = await startSandbox()
    answers = []
    app = await startRawApp(slack, (body) => answers.shift()?.(body))
  })

  afterEach(async () => {
    await app.client.disconnect()
    await slack.close()
  })

  function post(blocks: Obj[]): { channel: string; ts: string } {
    return slack.workspace.post({ channel: slack.defaultChannel, user: 'U0SANDBOXBOT', text: 'x', blocks })
  }

  it('picks an overflow menu item by its text', async () => {
    const message = post([{ type: 'section', block_id: 's', text: plain('More'), accessory: { type: 'overflow', action_id: 'more', options: [option('Edit', 'e'), option('Delete', 'd')] } }])

    await slack.user('U0SANDBOX01').click(message, 'Delete')

    expect(app.bodies.at(-1)).toMatchObject({ actions: [{ type: 'overflow', action_id: 'more', block_id: 's', selected_option: { value: 'd' } }] })
  })

  it('asks the app for options with block_suggestion before picking in an external select', async () => {
    const message = post([{ type: 'actions', block_id: 'a', elements: [{ type: 'external_select', action_id: 'find', placeholder: plain('Search'), min_query_length: 2 }] }])
    answers.push((body) => ({ options: [option(`Match for ${String(body.value)}`, '42')] }))

    await slack.user('U0SANDBOX01').choose(message, 'Match for re', { query: 're' })

    expect(app.bodies[0]).toMatchObject({ type: 'block_suggestion', action_id: 'find', block_id: 'a', value: 're', user: { id: 'U0SANDBOX01' }, container: { type: 'message' } })
    expect(app.bodies[1]).toMatchObject({ type: 'block_actions', actions: [{ type: 'external_select', selected_option: { value: '42' } }] })
    expect(app.bodies[1]!.state).toMatchObject({ values: { a: { find: { type: 'external_select', selected_option: { value: '42' } } } } })
  })

  it('picks in a static select and reports it in later payloads', async () => {
    const message = post([
      { type: 'actions', block_id: 'a', elements: [{ type: 'static_select', action_id: 'pick', placeholder: plain('Choose'), options: [option('One', '1'), option('Two', '2')] }] },
      { type: 'actions', block_id: 'b', elements: [{ type: 'button', action_id: 'ok', text: plain('OK') }] },
    ])
    const alice = slack.user('U0SANDBOX01')

    await alice.choose(message, 'Two')
    await alice.click(message, 'OK')

    expect(app.bodies[0]).toMatchObject({ actions: [{ type: 'static_select', selected_option: { value: '2' }, placeholder: { text: 'Choose' } }] })
    expect(app.bodies[1]!.state).toEqual({ values: { a: { pick: { type: 'static_select', selected_option: option('Two', '2') } } } })
  })

  it('names what it sees when a control is missing, and asks for the menu when a label is ambiguous', async () => {
    const menu = (id: string): Obj => ({ type: 'static_select', action_id: id, placeholder: plain(id), options: [option('Same', '1')] })
    const message = post([{ type: 'actions', elements: [menu('first'), menu('second')] }])
    const alice = slack.user('U0SANDBOX01')

    await expect(alice.click(message, 'Nope')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('static_select first') })
    await expect(alice.choose(message, 'Same')).rejects.toMatchObject({ code: 'AMBIGUOUS' })
    await expect(alice.choose(message, 'Same', { menu: 'second' })).resolves.toEqual({})
  })

  it('says what it could not find in a plain sentence ("sees no button …", never "sees no a button")', async () => {
    const message = post([{ type: 'actions', elements: [{ type: 'button', action_id: 'go', text: plain('Go') }] }])
    const alice = slack.user('U0SANDBOX01')

    await expect(alice.click(message, 'Stop')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/^U0SANDBOX01 sees no button or overflow item Stop in message /) })
    await expect(alice.choose(message, 'Two')).rejects.toMatchObject({ message: expect.stringMatching(/sees no option Two in/) })
  })

  it('clicks a button in an ephemeral message, which Slack sends without the message', async () => {
    await webClient(slack).chat.postEphemeral({
      channel: slack.defaultChannel,
      user: 'U0SANDBOX02',
      text: 'only bob',
      blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: 'hide', text: plain('Hide') }] }] as never,
    })
    const [ephemeral] = slack.ephemerals('U0SANDBOX02')

    await slack.user('U0SANDBOX02').click(ephemeral!, 'Hide')

    expect(app.bodies.at(-1)).toMatchObject({ container: { type: 'message', is_ephemeral: true } })
    expect(app.bodies.at(-1)).not.toHaveProperty('message')
  })

  it('fills radio buttons and checkboxes inside a modal without telling the app until submit', async () => {
    const view = {
      type: 'modal',
      callback_id: 'form',
      title: plain('Form'),
      submit: plain('Send'),
      blocks: [
        { type: 'input', block_id: 'q1', label: plain('Colour'), element: { type: 'radio_buttons', action_id: 'c', options: [option('Red', 'r'), option('Blue', 'b')] } },
        { type: 'input', block_id: 'q2', label: plain('Sizes'), optional: true, element: { type: 'checkboxes', action_id: 's', options: [option('S', 's'), option('M', 'm')] } },
      ],
    }
    await webClient(slack).views.open({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view: view as never })
    const alice = slack.user('U0SANDBOX01')

    expect(await alice.choose('modal', 'Blue')).toBeUndefined()
    expect(await alice.toggle('modal', 'M')).toBeUndefined()
    await alice.submit()

    expect(app.bodies).toHaveLength(1)
    expect(app.bodies[0]).toMatchObject({
      type: 'view_submission',
      view: { callback_id: 'form', state: { values: { q1: { c: { type: 'radio_buttons', selected_option: { value: 'b' } } }, q2: { s: { type: 'checkboxes', selected_options: [{ value: 'm' }] } } } } },
    })
  })

  it('follows response_action update, push and clear from the submit ack', async () => {
    const view = (title: string): Obj => ({ type: 'modal', title: plain(title), submit: plain('Next'), blocks: [] })
    await webClient(slack).views.open({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view: view('One') as never })
    const alice = slack.user('U0SANDBOX01')
    answers.push(() => ({ response_action: 'update', view: view('Two') }), () => ({ response_action: 'push', view: view('Three') }), () => ({ response_action: 'clear' }))

    await alice.submit()
    const updated = alice.modal()
    await alice.submit()
    const pushed = alice.modal()
    await alice.submit()

    expect(updated?.title).toMatchObject({ text: 'Two' })
    expect(pushed).toMatchObject({ title: { text: 'Three' }, previous_view_id: updated?.id })
    expect(alice.modal()).toBeUndefined()
  })

  it('fails a submit whose ack carries a view Slack would refuse', async () => {
    await webClient(slack).views.open({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view: { type: 'modal', title: plain('One'), blocks: [] } as never })
    answers.push(() => ({ response_action: 'update', view: { type: 'modal', title: plain('t'.repeat(25)), blocks: [] } }))

    await expect(slack.user('U0SANDBOX01').submit()).rejects.toMatchObject({ code: 'BAD_ACK' })
  })

  it('feeds every workspace change to change listeners', async () => {
    const changes: WorkspaceChange['type'][] = []
    slack.workspace.on('change', (change) => changes.push(change.type))
    const web = webClient(slack)

    const posted = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'a' })
    await web.chat.update({ channel: slack.defaultChannel, ts: posted.ts!, text: 'b' })
    await web.chat.postEphemeral({ channel: slack.defaultChannel, user: 'U0SANDBOX01', text: 'c' })
    await web.chat.delete({ channel: slack.defaultChannel, ts: posted.ts! })
    await web.views.open({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view: { type: 'modal', title: plain('M'), blocks: [] } as never })
    await slack.user('U0SANDBOX01').close()

    expect(changes).toEqual(['message_posted', 'message_updated', 'ephemeral_posted', 'message_deleted', 'view_opened', 'view_closed'])
  })

  it('fails a wait with the message it was given', async () => {
    await expect(slack.waitFor(() => false, { timeoutMs: 50, message: 'a pigeon' })).rejects.toMatchObject({ code: 'TIMEOUT', message: 'waited 50 ms for a pigeon' })
  })
})
