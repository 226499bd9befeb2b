import type { WebClient } from '@slack/web-api'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { answer, webClient as client } from './clients.js'

/** Message metadata and conversations.history in the stand-in, as strict as Slack (what the post take-over relies on). */
describe('the stand-in: message metadata and conversations.history', () => {
  let slack: Sandbox
  let web: WebClient
  const metadata = { event_type: 'dsh_slack_ask', event_payload: { ask_id: 'a1' } }

  beforeEach(async () => {
    slack = await startSandbox()
    web = client(slack)
  })

  afterEach(async () => {
    await slack.close()
  })

  it('keeps a message metadata and returns it from conversations.history only with include_all_metadata', async () => {
    const posted = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'card', metadata })

    const plain = await web.conversations.history({ channel: slack.defaultChannel })
    const withMetadata = await web.conversations.history({ channel: slack.defaultChannel, include_all_metadata: true })

    expect(plain.messages?.[0]).toMatchObject({ ts: posted.ts, text: 'card' })
    expect(plain.messages?.[0]).not.toHaveProperty('metadata')
    expect(withMetadata.messages?.[0]).toMatchObject({ ts: posted.ts, metadata })
  })

  it('refuses metadata without an event_type or with a payload that is not an object', async () => {
    const noType = await answer(web.apiCall('chat.postMessage', { channel: slack.defaultChannel, text: 'x', metadata: JSON.stringify({ event_payload: {} }) }))
    const badPayload = await answer(web.apiCall('chat.postMessage', { channel: slack.defaultChannel, text: 'x', metadata: JSON.stringify({ event_type: 'x', event_payload: 'y' }) }))

    expect(noType).toMatchObject({ ok: false, error: 'invalid_metadata_format' })
    expect(badPayload).toMatchObject({ ok: false, error: 'invalid_metadata_format' })
    expect(slack.messages(slack.defaultChannel)).toHaveLength(0)
  })

  it('gives the timeline newest first, after `oldest`, in pages, without thread replies', async () => {
    const first = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'one' })
    await web.chat.postMessage({ channel: slack.defaultChannel, text: 'reply', thread_ts: first.ts! })
    await web.chat.postMessage({ channel: slack.defaultChannel, text: 'two' })
    await web.chat.postMessage({ channel: slack.defaultChannel, text: 'three' })

    const page1 = await web.conversations.history({ channel: slack.defaultChannel, limit: 2 })
    const page2 = await web.conversations.history({ channel: slack.defaultChannel, limit: 2, cursor: page1.response_metadata!.next_cursor! })
    const since = await web.conversations.history({ channel: slack.defaultChannel, oldest: first.ts! })

    expect(page1.messages?.map((m) => m.text)).toEqual(['three', 'two'])
    expect(page1.has_more).toBe(true)
    expect(page2.messages?.map((m) => m.text)).toEqual(['one'])
    expect(page2.has_more).toBe(false)
    expect(since.messages?.map((m) => m.text)).toEqual(['three', 'two'])
  })

  it('needs the channel kind history scope, and the bot in the channel', async () => {
    const notIn = await answer(web.conversations.history({ channel: 'C0SANDBOX02' }))
    const unknown = await answer(web.conversations.history({ channel: 'C0NOSUCH' }))
    await slack.close()
    slack = await startSandbox({ scopes: ['chat:write', 'groups:history'] })
    const noScope = await answer(client(slack).conversations.history({ channel: slack.defaultChannel }))

    expect(notIn).toMatchObject({ ok: false, error: 'not_in_channel' })
    expect(unknown).toMatchObject({ ok: false, error: 'channel_not_found' })
    expect(noScope).toMatchObject({ ok: false, error: 'missing_scope', needed: 'channels:history' })
  })
})
