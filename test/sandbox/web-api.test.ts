import type { WebAPICallResult, WebClient } from '@slack/web-api'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { ShiftedClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { sandboxEnvOptions } from '../../src/sandbox/env-options.js'
import { answer, webClient as client } from './clients.js'

async function raw(slack: Sandbox, method: string, init: RequestInit): Promise<Response> {
  return fetch(`${slack.apiUrl}${method}`, { method: 'POST', ...init })
}

describe('the stand-in Web API', () => {
  const clock = new ShiftedClock()
  let slack: Sandbox
  let web: WebClient

  beforeEach(async () => {
    slack = await startSandbox({ clock })
    web = client(slack)
  })

  afterEach(async () => {
    await slack.close()
  })

  it('listens on 127.0.0.1 only', () => {
    expect(new URL(slack.apiUrl).hostname).toBe('127.0.0.1')
    expect(slack.apiUrl).toBe(`http://127.0.0.1:${slack.port}/api/`)
  })

  it('hands out tokens that cannot be mistaken for real ones', () => {
    expect(slack.botToken).toMatch(/^xoxb-/)
    expect(slack.botToken).not.toMatch(/^xoxb-\d{6,}/)
    expect(slack.appToken).toMatch(/^xapp-/)
    expect(slack.appToken).not.toMatch(/^xapp-\d-/)
  })

  it('answers auth.test with what Bolt reads at start-up and lists the scopes in x-oauth-scopes', async () => {
    const result = await web.auth.test()

    expect(result).toMatchObject({ ok: true, user_id: 'U0SANDBOXBOT', bot_id: 'B0SANDBOX01', team_id: 'T0SANDBOX01', team: 'Sandbox' })
    expect(result.response_metadata?.scopes).toContain('chat:write')
  })

  it('answers unknown_method for a method Slack does not have', async () => {
    expect(await answer(web.apiCall('chat.frobnicate'))).toMatchObject({ ok: false, error: 'unknown_method' })
  })

  it('refuses a wrong token with invalid_auth and a missing one with not_authed', async () => {
    expect(await answer(client(slack, 'xoxb-sandbox-wrong').auth.test())).toMatchObject({ ok: false, error: 'invalid_auth' })
    expect(await (await raw(slack, 'auth.test', {})).json()).toMatchObject({ ok: false, error: 'not_authed' })
  })

  it('takes the app token only for apps.connections.open', async () => {
    expect(await answer(client(slack, slack.appToken).chat.postMessage({ channel: slack.defaultChannel, text: 'x' }))).toMatchObject({ error: 'not_allowed_token_type' })
    expect(await answer(web.apps.connections.open())).toMatchObject({ error: 'not_allowed_token_type' })
    expect(await client(slack, slack.appToken).apps.connections.open()).toMatchObject({ ok: true, url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/) })
  })

  it('reads JSON bodies with the token in the Authorization header, but not a token inside the JSON', async () => {
    const body = JSON.stringify({ channel: slack.defaultChannel, text: 'from JSON' })

    const withHeader = await raw(slack, 'chat.postMessage', { headers: { 'content-type': 'application/json', authorization: `Bearer ${slack.botToken}` }, body })
    const inBody = await raw(slack, 'chat.postMessage', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: slack.botToken, channel: slack.defaultChannel, text: 'x' }) })

    expect(await withHeader.json()).toMatchObject({ ok: true, message: { text: 'from JSON' } })
    expect(await inBody.json()).toMatchObject({ ok: false, error: 'not_authed' })
  })

  it('refuses a call without the scope it needs with missing_scope, needed and provided', async () => {
    await slack.close()
    slack = await startSandbox({ scopes: ['chat:write'] })

    const result = await answer(client(slack).users.info({ user: 'U0SANDBOX01' }))

    expect(result).toMatchObject({ ok: false, error: 'missing_scope', needed: 'users:read', provided: 'chat:write' })
  })

  it('refuses to post in a public channel the bot is not in without chat:write.public', async () => {
    await slack.close()
    slack = await startSandbox({ scopes: ['chat:write'] })

    expect(await answer(client(slack).chat.postMessage({ channel: 'C0SANDBOX02', text: 'x' }))).toMatchObject({ error: 'not_in_channel' })
  })

  it('posts in a public channel the bot is not in with chat:write.public', async () => {
    expect(await web.chat.postMessage({ channel: 'C0SANDBOX02', text: 'x' })).toMatchObject({ ok: true, channel: 'C0SANDBOX02' })
  })

  it('answers channel_not_found for an unknown channel and for a private one the bot is not in', async () => {
    slack.createChannel({ id: 'G0SECRET', name: 'secret', isPrivate: true, botIsMember: false })

    expect(await answer(web.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).toMatchObject({ error: 'channel_not_found' })
    expect(await answer(web.chat.postMessage({ channel: 'G0SECRET', text: 'x' }))).toMatchObject({ error: 'channel_not_found' })
  })

  it('answers 429 with Retry-After when a channel gets more than its posting rate', async () => {
    await slack.close()
    slack = await startSandbox({ postRatePerSecond: 1, postBurst: 2, clock })
    const fast = client(slack)
    await fast.chat.postMessage({ channel: slack.defaultChannel, text: '1' })
    await fast.chat.postMessage({ channel: slack.defaultChannel, text: '2' })

    const response = await raw(slack, 'chat.postMessage', { headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: `channel=${slack.defaultChannel}&text=3` })

    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('1')
    expect(await response.json()).toEqual({ ok: false, error: 'ratelimited' })
    expect(await fast.chat.postMessage({ channel: 'C0SANDBOX02', text: 'other channels have their own rate' })).toMatchObject({ ok: true })
    clock.advance(1000)
    expect(await fast.chat.postMessage({ channel: slack.defaultChannel, text: 'a second later' })).toMatchObject({ ok: true })
  })

  it('takes chat.update at its real Tier 3, the documented 50 a minute unless told more, then answers 429 with Retry-After', async () => {
    const updateAll = async (sandbox: Sandbox, count: number) => {
      const web = client(sandbox)
      const { ts } = await web.chat.postMessage({ channel: sandbox.defaultChannel, text: 'card' })
      const answers = []
      for (let i = 0; i < count; i++) answers.push(await raw(sandbox, 'chat.update', { headers: { authorization: `Bearer ${sandbox.botToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: `channel=${sandbox.defaultChannel}&ts=${ts}&text=${i}` }))
      return answers
    }
    // Time stands still here, so however slow the machine the buckets refill nothing between calls.
    const still = { now: () => 1_764_600_000_000 }
    await slack.close()
    slack = await startSandbox({ clock: still })
    const documented = await updateAll(slack, 51)
    await slack.close()
    slack = await startSandbox({ clock: still, tier3PerMinute: 120 })

    const more = await updateAll(slack, 121)

    expect(documented.filter((r) => r.status === 200)).toHaveLength(50)
    expect(documented.at(-1)!.status).toBe(429)
    expect(documented.at(-1)!.headers.get('retry-after')).toBe('2')
    expect(more.filter((r) => r.status === 200)).toHaveLength(120)
    expect(more.at(-1)!.headers.get('retry-after')).toBe('1')
  })

  it('reads its real Tier 3 from SANDBOX_TIER3_PER_MINUTE, and refuses a value that is no rate', () => {
    expect(sandboxEnvOptions({ SANDBOX_TIER3_PER_MINUTE: '120' })).toEqual({ tier3PerMinute: 120 })
    expect(sandboxEnvOptions({})).toEqual({})
    expect(() => sandboxEnvOptions({ SANDBOX_TIER3_PER_MINUTE: 'fast' })).toThrow(/SANDBOX_TIER3_PER_MINUTE/)
    expect(() => sandboxEnvOptions({ SANDBOX_TIER3_PER_MINUTE: '0' })).toThrow(/SANDBOX_TIER3_PER_MINUTE/)
  })

  it('grants the code-channel scopes with SANDBOX_CODE_CHANNELS=on, as an app installed from today\'s manifest, and refuses another word', () => {
    expect(sandboxEnvOptions({ SANDBOX_CODE_CHANNELS: 'on' }).scopes).toEqual(expect.arrayContaining(['code_channels:manage', 'canvases:write', 'chat:write']))
    expect(sandboxEnvOptions({ SANDBOX_CODE_CHANNELS: 'off' })).toEqual({})
    expect(() => sandboxEnvOptions({ SANDBOX_CODE_CHANNELS: 'yes' })).toThrow('SANDBOX_CODE_CHANNELS must be on or off, got yes')
  })

  it('injects faults for the next calls of a method: an error code, a 429, a 500, then behaves again', async () => {
    slack.faults.inject('chat.postMessage', { error: 'fatal_error' })
    slack.faults.inject('chat.postMessage', { status: 429, retryAfter: 7 })
    slack.faults.inject('chat.postMessage', { status: 500 }, { times: 2 })
    const post = (): Promise<WebAPICallResult> => web.chat.postMessage({ channel: slack.defaultChannel, text: 'x' })

    expect(await answer(post())).toMatchObject({ error: 'fatal_error' })
    await expect(post()).rejects.toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 })
    await expect(post()).rejects.toMatchObject({ code: 'slack_webapi_http_error', statusCode: 500 })
    await expect(post()).rejects.toMatchObject({ statusCode: 500 })
    expect(await post()).toMatchObject({ ok: true })
  })

  it('updates, links and deletes the bot’s messages and keeps their history', async () => {
    const posted = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'before' })

    const updated = await web.chat.update({ channel: slack.defaultChannel, ts: posted.ts!, text: 'after' })
    const link = await web.chat.getPermalink({ channel: slack.defaultChannel, message_ts: posted.ts! })

    expect(updated).toMatchObject({ ok: true, ts: posted.ts, text: 'after' })
    expect(slack.messages(slack.defaultChannel)[0]).toMatchObject({ text: 'after', history: [{ text: 'before' }], edited: { user: 'U0SANDBOXBOT' } })
    expect(link.permalink).toContain(`/archives/${slack.defaultChannel}/p${posted.ts!.replace('.', '')}`)
    expect(await web.chat.delete({ channel: slack.defaultChannel, ts: posted.ts! })).toMatchObject({ ok: true })
    expect(slack.messages(slack.defaultChannel)).toEqual([])
    expect(await answer(web.chat.update({ channel: slack.defaultChannel, ts: posted.ts!, text: 'gone' }))).toMatchObject({ error: 'message_not_found' })
  })

  it('keeps thread replies with their thread_ts and counts them on the parent', async () => {
    const parent = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'parent' })

    await web.chat.postMessage({ channel: slack.defaultChannel, thread_ts: parent.ts!, text: 'reply' })

    expect(slack.latestMessage(slack.defaultChannel)).toMatchObject({ text: 'parent', reply_count: 1 })
    expect(slack.latestMessage(slack.defaultChannel, { thread: parent.ts! })).toMatchObject({ text: 'reply', thread_ts: parent.ts })
  })

  it('shows an ephemeral message to one member only and refuses a user outside the channel', async () => {
    slack.addUser({ id: 'U0OUTSIDER', name: 'out' })
    slack.createChannel({ id: 'C0SMALL', name: 'small', members: ['U0SANDBOX01'] })

    const result = await web.chat.postEphemeral({ channel: 'C0SMALL', user: 'U0SANDBOX01', text: 'only you' })

    expect(result).toMatchObject({ ok: true, message_ts: expect.any(String) })
    expect(slack.ephemerals('U0SANDBOX01')).toMatchObject([{ channel: 'C0SMALL', text: 'only you' }])
    expect(slack.ephemerals('U0SANDBOX02')).toEqual([])
    expect(await answer(web.chat.postEphemeral({ channel: 'C0SMALL', user: 'U0OUTSIDER', text: 'x' }))).toMatchObject({ error: 'user_not_in_channel' })
  })

  it('opens a DM with a user as a D… channel and posts there', async () => {
    const opened = await web.conversations.open({ users: 'U0SANDBOX01' })

    const posted = await web.chat.postMessage({ channel: opened.channel!.id!, text: 'hi' })

    expect(opened.channel!.id).toMatch(/^D/)
    expect(await web.conversations.info({ channel: opened.channel!.id! })).toMatchObject({ channel: { is_im: true, user: 'U0SANDBOX01' } })
    expect(posted.channel).toBe(opened.channel!.id)
  })

  it('answers users.info, conversations.info and usergroups.users.list from the workspace', async () => {
    slack.createUserGroup({ id: 'S0REVIEW', users: ['U0SANDBOX01', 'U0SANDBOX02'] })

    expect(await web.users.info({ user: 'U0SANDBOX02' })).toMatchObject({ user: { id: 'U0SANDBOX02', name: 'bob', real_name: 'Bob Example' } })
    expect(await web.conversations.info({ channel: 'C0SANDBOX02' })).toMatchObject({ channel: { name: 'general', is_member: false } })
    expect(await web.usergroups.users.list({ usergroup: 'S0REVIEW' })).toMatchObject({ users: ['U0SANDBOX01', 'U0SANDBOX02'] })
    expect(await answer(web.users.info({ user: 'U0NOBODY' }))).toMatchObject({ error: 'user_not_found' })
  })

  it('takes an uploaded file through getUploadURLExternal, the upload URL and completeUploadExternal into a thread', async () => {
    const parent = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'plan' })

    await web.filesUploadV2({ channel_id: slack.defaultChannel, thread_ts: parent.ts!, filename: 'plan.md', content: '# The plan\n' })

    const reply = slack.latestMessage(slack.defaultChannel, { thread: parent.ts! })
    const file = (reply?.files as { id: string; name: string; size: number }[])[0]!
    expect(file).toMatchObject({ name: 'plan.md', size: 11 })
    expect(slack.workspace.files.get(file.id)?.bytes?.toString()).toBe('# The plan\n')
  })

  it('lets a trigger_id open one modal within three seconds, and refuses it reused or expired', async () => {
    const alice = slack.user('U0SANDBOX01')
    const view = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'Hi' }, blocks: [] }
    const first = slack.issueTriggerId(alice.id)
    const second = slack.issueTriggerId(alice.id)

    const opened = await web.views.open({ trigger_id: first, view })
    const reused = await answer(web.views.open({ trigger_id: first, view }))
    clock.advance(3001)
    const expired = await answer(web.views.open({ trigger_id: second, view }))
    const unknown = await answer(web.views.open({ trigger_id: '1.2.deadbeef', view }))

    expect(opened).toMatchObject({ ok: true, view: { id: expect.stringMatching(/^V/), title: { text: 'Hi' } } })
    expect(slack.modal(alice.id)?.id).toBe(opened.view!.id)
    expect(reused).toMatchObject({ ok: false, error: 'exchanged_trigger_id' })
    expect(expired).toMatchObject({ ok: false, error: 'expired_trigger_id' })
    expect(unknown).toMatchObject({ ok: false, error: 'invalid_trigger_id' })
  })

  it('refuses views.update with a stale hash and pushes at most three views', async () => {
    const view = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'One' }, blocks: [] }
    const opened = await web.views.open({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view })

    const updated = await web.views.update({ view_id: opened.view!.id!, hash: opened.view!.hash!, view: { ...view, title: { type: 'plain_text', text: 'Two' } } })
    const stale = await answer(web.views.update({ view_id: opened.view!.id!, hash: opened.view!.hash!, view }))
    await web.views.push({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view })
    await web.views.push({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view })
    const fourth = await answer(web.views.push({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view }))

    expect(updated.view).toMatchObject({ id: opened.view!.id, title: { text: 'Two' } })
    expect(stale).toMatchObject({ error: 'hash_conflict' })
    expect(fourth).toMatchObject({ error: 'push_limit_reached' })
  })
})
