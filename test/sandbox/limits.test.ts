import type { WebClient } from '@slack/web-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { answer, webClient } from './clients.js'

const section = (text: string): Record<string, unknown> => ({ type: 'section', text: { type: 'mrkdwn', text } })
const button = (text: string, actionId: string): Record<string, unknown> => ({ type: 'button', action_id: actionId, text: { type: 'plain_text', text } })
const option = (i: number): Record<string, unknown> => ({ text: { type: 'plain_text', text: `Option ${i}` }, value: String(i) })

describe('the stand-in refuses what Slack refuses', () => {
  let slack: Sandbox
  let web: WebClient
  const post = (blocks: Record<string, unknown>[]): Promise<Record<string, unknown>> => answer(web.chat.postMessage({ channel: slack.defaultChannel, text: 'fallback', blocks: blocks as never }))

  beforeAll(async () => {
    // A fast posting rate: these tests are about content, not pacing.
    slack = await startSandbox({ postRatePerSecond: 1000, postBurst: 1000 })
    web = webClient(slack)
  })

  afterAll(async () => {
    await slack.close()
  })

  it('refuses 51 blocks with invalid_blocks and Slack’s messages, and takes 50', async () => {
    const refused = await post(Array.from({ length: 51 }, () => ({ type: 'divider' })))

    expect(refused).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      errors: ['no more than 50 items allowed [json-pointer:/blocks]'],
      response_metadata: { messages: ['[ERROR] no more than 50 items allowed [json-pointer:/blocks]'] },
    })
    expect(await post(Array.from({ length: 50 }, () => ({ type: 'divider' })))).toMatchObject({ ok: true })
  })

  it('refuses a 3,001-character section', async () => {
    expect(await post([section('x'.repeat(3001))])).toMatchObject({ error: 'invalid_blocks', errors: ['must be less than 3001 characters [json-pointer:/blocks/0/text/text]'] })
  })

  it('refuses a static select with 101 options', async () => {
    const select = { type: 'static_select', action_id: 's', placeholder: { type: 'plain_text', text: 'Pick' }, options: Array.from({ length: 101 }, (_, i) => option(i)) }

    expect(await post([{ type: 'actions', elements: [select] }])).toMatchObject({ error: 'invalid_blocks', errors: ['no more than 100 items allowed [json-pointer:/blocks/0/elements/0/options]'] })
  })

  it('refuses a 76-character button', async () => {
    expect(await post([{ type: 'actions', elements: [button('b'.repeat(76), 'a')] }])).toMatchObject({ error: 'invalid_blocks' })
  })

  it('refuses duplicate action_ids within a message', async () => {
    const refused = await post([
      { type: 'actions', elements: [button('One', 'same')] },
      { type: 'actions', elements: [button('Two', 'same')] },
    ])

    expect(refused).toMatchObject({ error: 'invalid_blocks', errors: ['duplicate action_id: same [json-pointer:/blocks/1/elements/0/action_id]'] })
  })

  it('refuses about 13k characters of text with msg_blocks_too_long', async () => {
    const blocks = Array.from({ length: 5 }, () => section('y'.repeat(2600)))

    expect(await post(blocks)).toMatchObject({ ok: false, error: 'msg_blocks_too_long' })
  })

  it('refuses blocks that are not JSON with invalid_blocks_format and an empty message with no_text', async () => {
    expect(await answer(web.apiCall('chat.postMessage', { channel: slack.defaultChannel, blocks: '[{' }))).toMatchObject({ error: 'invalid_blocks_format' })
    expect(await answer(web.chat.postMessage({ channel: slack.defaultChannel, text: '' }))).toMatchObject({ error: 'no_text' })
  })

  it('refuses an input block in a message', async () => {
    const input = { type: 'input', label: { type: 'plain_text', text: 'L' }, element: { type: 'plain_text_input', action_id: 't' } }

    expect(await post([input])).toMatchObject({ error: 'invalid_blocks' })
  })

  it('checks chat.update and chat.postEphemeral as strictly as chat.postMessage', async () => {
    const posted = await web.chat.postMessage({ channel: slack.defaultChannel, text: 'x' })
    const tooLong = [section('z'.repeat(3001))] as never

    expect(await answer(web.chat.update({ channel: slack.defaultChannel, ts: posted.ts!, text: 'x', blocks: tooLong }))).toMatchObject({ error: 'invalid_blocks' })
    expect(await answer(web.chat.postEphemeral({ channel: slack.defaultChannel, user: 'U0SANDBOX01', text: 'x', blocks: tooLong }))).toMatchObject({ error: 'invalid_blocks' })
  })

  it('refuses a modal with a 25-character title with invalid_arguments', async () => {
    const view = { type: 'modal', title: { type: 'plain_text', text: 't'.repeat(25) }, blocks: [] }

    const refused = await answer(web.views.open({ trigger_id: slack.issueTriggerId('U0SANDBOX01'), view: view as never }))

    expect(refused).toMatchObject({ ok: false, error: 'invalid_arguments', response_metadata: { messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'] } })
  })

  it('validates blocks through blocks.validate without posting them', async () => {
    expect(await web.blocks.validate({ blocks: [section('fine')] as never })).toMatchObject({ ok: true })
    expect(await answer(web.blocks.validate({ blocks: [section('x'.repeat(3001))] as never }))).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      errors: [{ message: 'must be less than 3001 characters', pointer: '/blocks/0/text/text' }],
    })
  })
})
