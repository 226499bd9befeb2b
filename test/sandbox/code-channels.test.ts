/**
 * The stand-in's code channels (decision 0073), through the real Web API
 * client: scopes, arguments, Slack's error codes, the view cap, the context
 * bar's five items, comment access, and comment threads that stay on
 * unchanged sections when the canvas is rewritten.
 */
import type { WebClient } from '@slack/web-api'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { sectionsOf } from '../../src/sandbox/code-channels.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { answer, webClient } from './clients.js'

const ALICE = 'U0SANDBOX01'
const SCOPES = [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write']
const PLAN = '# Plan\n\n1. Add the column\n2. Backfill\n3. Drop the old column'

describe('code channels in the stand-in', () => {
  let slack: Sandbox
  let web: WebClient

  beforeEach(async () => {
    slack = await startSandbox({ scopes: SCOPES })
    web = webClient(slack)
  })
  afterEach(async () => {
    await slack.close()
  })

  async function channelWithCanvas(access: 'comment' | 'write' = 'comment') {
    const card = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'Plan review' })
    const { channel_id } = await web.agents.conversations.create({ name: 'plan', session_id: 'ses-1', origin_channel_id: slack.defaultChannel, origin_message_ts: card.ts! })
    const { canvas_id } = await web.canvases.create({ title: 'Plan', document_content: { type: 'markdown', markdown: PLAN } })
    await web.agents.conversations.setView({ channel_id: channel_id!, type: 'canvas', view_key: 'plan', canvas_id: canvas_id!, access_level: access })
    return { channel: channel_id!, canvas: canvas_id!, card: card.ts! }
  }

  it('creates one channel per session id, linked to its origin message', async () => {
    const first = await channelWithCanvas()
    const again = await answer(web.agents.conversations.create({ name: 'other name', session_id: 'ses-1' }))

    expect(again).toMatchObject({ ok: true, channel_id: first.channel })
    expect(slack.codeChannels.channels.get(first.channel)?.origin).toEqual({ channel: slack.defaultChannel, ts: first.card })
  })

  it('refuses a half origin link, a missing name without one, and an origin message that does not exist', async () => {
    expect(await answer(web.agents.conversations.create({ name: 'x', origin_channel_id: slack.defaultChannel }))).toMatchObject({ ok: false, error: 'invalid_arguments' })
    expect(await answer(web.agents.conversations.create({} as never))).toMatchObject({ ok: false, error: 'invalid_arguments' })
    expect(await answer(web.agents.conversations.create({ name: 'x', origin_channel_id: slack.defaultChannel, origin_message_ts: '1.000001' }))).toMatchObject({ ok: false, error: 'message_not_found' })
  })

  it('answers missing_scope without code_channels:manage, and canvases.create without canvases:write', async () => {
    const bare = await startSandbox()
    try {
      const client = webClient(bare)
      expect(await answer(client.agents.conversations.create({ name: 'x' }))).toMatchObject({ ok: false, error: 'missing_scope', needed: 'code_channels:manage' })
      expect(await answer(client.canvases.create({ title: 'x' }))).toMatchObject({ ok: false, error: 'missing_scope', needed: 'canvases:write' })
    } finally {
      await bare.close()
    }
  })

  it('caps html and diff views at 1,000,000 bytes with content_too_large, and takes exactly that', async () => {
    const { channel } = await channelWithCanvas()
    const html = (bytes: number) => answer(web.agents.conversations.setView({ channel_id: channel, type: 'html', view_key: 'report.html', content: 'é'.repeat(bytes / 2) }))

    expect(await html(1_000_002)).toMatchObject({ ok: false, error: 'content_too_large' })
    expect(await html(1_000_000)).toMatchObject({ ok: true })
  })

  it('takes five context-bar items and refuses six', async () => {
    const { channel } = await channelWithCanvas()
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, label: `item ${i}`, icon: 'folder' }))

    expect(await answer(web.agents.conversations.setProperties({ channel_id: channel, code_channel: { context_bar_items: items(6) } }))).toMatchObject({ ok: false, error: 'invalid_arguments' })
    expect(await answer(web.agents.conversations.setProperties({ channel_id: channel, code_channel: { context_bar_items: items(5) } }))).toMatchObject({ ok: true })
    expect(slack.codeChannels.channels.get(channel)?.contextBar).toHaveLength(5)
  })

  it('lets a channel member comment on a passage, and getCanvas returns the open thread', async () => {
    const { channel, canvas } = await channelWithCanvas()
    slack.user(ALICE).commentOnCanvas(canvas, 'Drop the old column', 'Not before the deploy')

    const read = await answer(web.agents.conversations.getCanvas({ channel, canvas_id: canvas }))

    expect(read).toMatchObject({ ok: true, canvas_id: canvas, has_more_comments: false, comments: [{ quoted_text: 'Drop the old column', text: 'Not before the deploy', user_id: ALICE, is_resolved: false, replies: [] }] })
  })

  it('refuses a comment on a passage that is in no one section, and by someone outside the channel', async () => {
    const { channel, canvas } = await channelWithCanvas()
    slack.addUser({ id: 'U0OUTSIDE' })
    // People join every public channel on arrival; this one has left it.
    slack.workspace.channels.get(channel)!.members.delete('U0OUTSIDE')

    expect(() => slack.user(ALICE).commentOnCanvas(canvas, 'Backfill\n3. Drop', 'spans two steps')).toThrow('passage_not_found')
    expect(() => slack.user('U0OUTSIDE').commentOnCanvas(canvas, 'Backfill', 'hi')).toThrow('not_in_channel')
  })

  it('keeps a thread on its section when another section changes or the steps are renumbered', async () => {
    const { channel, canvas } = await channelWithCanvas()
    const comment = slack.user(ALICE).commentOnCanvas(canvas, 'Drop the old column', 'After the deploy')

    await web.agents.conversations.setCanvasContent({ channel, canvas_id: canvas, content: '# Plan\n\n1. Add the column\n2. Take a backup\n3. Backfill in batches\n4. Drop the old column' })

    const sections = slack.codeChannels.canvas(canvas).sections
    expect(sections.find((s) => s.id === comment.sectionId)?.markdown).toBe('4. Drop the old column')
    expect(sections.map((s) => s.markdown)).toContain('2. Take a backup')
  })

  it('refuses setCanvasContent for a canvas that is not this channel’s, and any call on an archived channel', async () => {
    const { channel, canvas } = await channelWithCanvas()
    const { canvas_id: loose } = await web.canvases.create({ title: 'elsewhere' })

    expect(await answer(web.agents.conversations.setCanvasContent({ channel, canvas_id: loose!, content: 'x' }))).toMatchObject({ ok: false, error: 'canvas_not_found' })
    expect(await answer(web.agents.conversations.archive({ channel_id: channel }))).toMatchObject({ ok: true })
    expect(await answer(web.agents.conversations.setCanvasContent({ channel, canvas_id: canvas, content: 'x' }))).toMatchObject({ ok: false, error: 'is_archived' })
  })
})

describe('archiving a code channel in the stand-in', () => {
  let slack: Sandbox
  let web: WebClient

  beforeEach(async () => {
    slack = await startSandbox({ scopes: SCOPES })
    web = webClient(slack)
  })
  afterEach(async () => {
    await slack.close()
  })

  async function codeChannel(origin = true) {
    const card = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'Plan review' })
    const link = origin ? { origin_channel_id: slack.defaultChannel, origin_message_ts: card.ts! } : {}
    const { channel_id } = await web.agents.conversations.create({ name: 'plan', session_id: 'ses-9', ...link })
    return { channel: channel_id!, card: card.ts! }
  }

  it('shares the summary message back as a reply in the origin message’s thread and keeps it as the channel’s summary', async () => {
    const { channel, card } = await codeChannel()
    const summary = await web.chat.postMessage({ channel, text: 'The session ended: plan approved.' })

    expect(await answer(web.agents.conversations.archive({ channel_id: channel, summary_message_ts: summary.ts! }))).toMatchObject({ ok: true })

    expect(slack.codeChannels.channels.get(channel)).toMatchObject({ archived: true, summaryMessage: { messageTs: summary.ts } })
    expect(slack.latestMessage(slack.defaultChannel, { thread: card })?.text).toBe('The session ended: plan approved.')
  })

  it('archives all the same, recording no summary, when the summary ts matches no message (as documented)', async () => {
    const { channel, card } = await codeChannel()

    expect(await answer(web.agents.conversations.archive({ channel_id: channel, summary_message_ts: '1.000042' }))).toMatchObject({ ok: true })

    expect(slack.codeChannels.channels.get(channel)?.archived).toBe(true)
    expect(slack.codeChannels.channels.get(channel)?.summaryMessage).toBeUndefined()
    expect(slack.latestMessage(slack.defaultChannel, { thread: card })).toBeUndefined()
  })

  it('refuses a second archive with already_archived, a summary without an origin link, and an unknown channel', async () => {
    const linked = await codeChannel()
    await web.agents.conversations.archive({ channel_id: linked.channel })
    const { channel_id: loose } = await web.agents.conversations.create({ name: 'no origin', session_id: 'ses-loose' })
    const summary = await web.chat.postMessage({ channel: loose!, text: 'done' })

    expect(await answer(web.agents.conversations.archive({ channel_id: linked.channel }))).toMatchObject({ ok: false, error: 'already_archived' })
    expect(await answer(web.agents.conversations.archive({ channel_id: loose!, summary_message_ts: summary.ts! }))).toMatchObject({ ok: false, error: 'no_origin_link' })
    expect(await answer(web.agents.conversations.archive({ channel_id: 'C0NOSUCH' }))).toMatchObject({ ok: false, error: 'channel_not_found' })
  })

  it('keeps an archived channel readable and returns it for its session id, but takes no message in it (is_archived)', async () => {
    const { channel } = await codeChannel()
    await web.agents.conversations.archive({ channel_id: channel })

    expect(await answer(web.agents.conversations.create({ name: 'plan again', session_id: 'ses-9' }))).toMatchObject({ ok: true, channel_id: channel })
    expect(await answer(web.agents.conversations.listViews({ channel_id: channel }))).toMatchObject({ ok: true })
    expect(await answer(web.chat.postMessage({ channel, text: 'late' }))).toMatchObject({ ok: false, error: 'is_archived' })
  })
})

describe('a canvas’s sections', () => {
  it('are headings, list items with what is indented under them, and paragraphs', () => {
    expect(sectionsOf('# Plan\nIntro line\nmore intro\n\n1. One\n   detail\n2. Two\n- bullet')).toEqual(['# Plan', 'Intro line\nmore intro', '1. One\n   detail', '2. Two', '- bullet'])
  })
})
