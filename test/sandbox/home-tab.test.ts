import type { WebClient } from '@slack/web-api'
import { App, LogLevel } from '@slack/bolt'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { answer, silentLogger, webClient as client } from './clients.js'

const ALICE = 'U0SANDBOX01'
const divider = { type: 'divider' }
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } })

describe('the stand-in’s views.publish', () => {
  let slack: Sandbox
  let web: WebClient

  beforeEach(async () => {
    slack = await startSandbox()
    web = client(slack)
  })

  afterEach(async () => {
    await slack.close()
  })

  it('replaces a person’s Home tab, keeping its view id and changing its hash', async () => {
    const first = await web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [section('one')] } })
    const second = await web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [section('two')] } })

    expect(first.view).toMatchObject({ type: 'home', team_id: 'T0SANDBOX01', app_id: 'A0SANDBOX01' })
    expect(second.view?.id).toBe(first.view?.id)
    expect(second.view?.hash).not.toBe(first.view?.hash)
    expect(slack.user(ALICE).home()?.blocks[0]).toMatchObject(section('two'))
  })

  it('refuses a missing user_id or view with invalid_arguments', async () => {
    expect(await answer(web.apiCall('views.publish', { view: JSON.stringify({ type: 'home', blocks: [] }) }))).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] missing required field: user_id'] },
    })
    expect(await answer(web.apiCall('views.publish', { user_id: ALICE }))).toMatchObject({ ok: false, error: 'invalid_arguments' })
  })

  it("takes 100 blocks in a Home tab (Slack's figure) and refuses 101 with invalid_arguments, as Slack does", async () => {
    const ok = await answer(web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: Array.from({ length: 100 }, () => divider) } }))
    const over = await answer(web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: Array.from({ length: 101 }, () => divider) } }))

    expect(ok).toMatchObject({ ok: true })
    expect(over).toMatchObject({ ok: false, error: 'invalid_arguments', response_metadata: { messages: ['[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]'] } })
  })

  it("refuses a modal sent as a Home tab, and a view past Slack's 250 kB with view_too_large", async () => {
    const modal = await answer(web.apiCall('views.publish', { user_id: ALICE, view: JSON.stringify({ type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] }) }))
    const huge = await answer(web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [section('x'.repeat(250_000))] } }))

    expect(modal).toMatchObject({ ok: false, error: 'invalid_arguments' })
    expect(huge).toMatchObject({ ok: false, error: 'view_too_large' })
  })

  it('refuses an unknown user, a stale hash and an app whose Home tab is off', async () => {
    const published = await web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [] } })
    await web.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [] } })
    const off = await startSandbox({ homeTabEnabled: false })

    expect(await answer(web.views.publish({ user_id: 'U0NOBODY', view: { type: 'home', blocks: [] } }))).toMatchObject({ ok: false, error: 'user_not_found' })
    expect(await answer(web.views.publish({ user_id: ALICE, hash: published.view!.hash!, view: { type: 'home', blocks: [] } }))).toMatchObject({ ok: false, error: 'hash_conflict' })
    expect(await answer(client(off).views.publish({ user_id: ALICE, view: { type: 'home', blocks: [] } }))).toMatchObject({ ok: false, error: 'not_enabled' })
    await off.close()
  })

  it('answers conversations.members page by page', async () => {
    const first = await web.conversations.members({ channel: slack.defaultChannel, limit: 2 })
    const rest = await web.conversations.members({ channel: slack.defaultChannel, limit: 2, cursor: first.response_metadata!.next_cursor! })

    expect([...first.members!, ...rest.members!].sort()).toEqual(['U0SANDBOX01', 'U0SANDBOX02', 'U0SANDBOXBOT'])
    expect(rest.response_metadata?.next_cursor).toBe('')
  })
})

describe('the stand-in’s app_home_opened and clicks on the Home tab', () => {
  let slack: Sandbox
  let app: App

  afterEach(async () => {
    await app?.stop()
    await slack?.close()
  })

  async function start(mode: 'socket' | 'http'): Promise<{ events: unknown[]; clicks: Record<string, unknown>[] }> {
    slack = await startSandbox()
    const events: unknown[] = []
    const clicks: Record<string, unknown>[] = []
    const base = { token: slack.botToken, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR, logger: { ...silentLogger, setName: () => {} } }
    app = mode === 'socket' ? new App({ ...base, appToken: slack.appToken, socketMode: true }) : new App({ ...base, signingSecret: slack.signingSecret })
    app.event('app_home_opened', async ({ event, client }) => {
      events.push(event)
      await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }] }] } })
    })
    app.action('go', async ({ ack, body }) => {
      await ack()
      clicks.push(body as unknown as Record<string, unknown>)
    })
    if (mode === 'socket') await app.start()
    else {
      const server = (await app.start(0)) as unknown as import('node:http').Server
      const address = server.address() as import('node:net').AddressInfo
      slack.deliverInteractionsTo({ kind: 'http', url: `http://127.0.0.1:${address.port}/slack/events` })
    }
    return { events, clicks }
  }

  it.each(['socket', 'http'] as const)('delivers app_home_opened over %s with the tab, the DM channel and, once published, the last view', async (mode) => {
    const { events } = await start(mode)
    const alice = slack.user(ALICE)

    await alice.openHome()
    await slack.waitFor(() => alice.home())
    await alice.openHome()
    await slack.waitFor(() => (events.length >= 2 ? true : undefined))

    expect(events[0]).toMatchObject({ type: 'app_home_opened', user: ALICE, tab: 'home', channel: expect.stringMatching(/^D/) })
    expect(events[0]).not.toHaveProperty('view')
    expect(events[1]).toMatchObject({ view: { type: 'home', id: alice.home()!.id } })
  })

  it.each(['socket', 'http'] as const)('sends a Home click over %s as block_actions from a home view, with no message or channel', async (mode) => {
    const { clicks } = await start(mode)
    const alice = slack.user(ALICE)
    await alice.openHome()
    await slack.waitFor(() => alice.home())

    await alice.click('home', 'Go')

    const click = clicks[0]!
    expect(click).toMatchObject({ type: 'block_actions', container: { type: 'view', view_id: alice.home()!.id }, view: { type: 'home', id: alice.home()!.id }, user: { id: ALICE } })
    expect(click).not.toHaveProperty('message')
    expect(click).not.toHaveProperty('channel')
  })
})
