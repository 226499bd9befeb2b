import type { WebClient } from '@slack/web-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { LIMIT } from '../../blocks/limits.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { answer, webClient } from './clients.js'
import { startRawApp } from './raw-app.js'

type Obj = Record<string, unknown>

const mrkdwn = (text: string): Obj => ({ type: 'mrkdwn', text })
const button = (text: string, actionId: string): Obj => ({ type: 'button', action_id: actionId, text: { type: 'plain_text', text } })
const card = (i: number, extra: Obj = {}): Obj => ({ type: 'card', title: mrkdwn(`Card ${i}`), actions: [button('Yes', `yes-${i}`)], ...extra })
const carousel = (cards: Obj[]): Obj => ({ type: 'carousel', elements: cards })
const raw = (text: string): Obj => ({ type: 'raw_text', text })
const rich = (text: string): Obj => ({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] })
/** A data_table with a header and `n` rows of two cells. */
const dataTable = (n: number, extra: Obj = {}): Obj => ({
  type: 'data_table',
  caption: 'Risks',
  rows: [[raw('step'), raw('risk')], ...Array.from({ length: n }, (_, i) => [raw(`${i + 1}`), rich('low')])],
  ...extra,
})

describe('the stand-in takes carousels, cards and data tables as Slack does, and refuses what Slack refuses', () => {
  let slack: Sandbox
  let web: WebClient
  const post = (blocks: Obj[]): Promise<Obj> => answer(web.chat.postMessage({ channel: slack.defaultChannel, text: 'fallback', blocks: blocks as never }))

  beforeAll(async () => {
    slack = await startSandbox({ postRatePerSecond: 1000, postBurst: 1000 })
    web = webClient(slack)
  })

  afterAll(async () => {
    await slack.close()
  })

  it('takes a carousel of 10 cards and refuses 11, naming the path', async () => {
    expect(await post([carousel(Array.from({ length: LIMIT.carouselCards }, (_, i) => card(i)))])).toMatchObject({ ok: true })

    expect(await post([carousel(Array.from({ length: LIMIT.carouselCards + 1 }, (_, i) => card(i)))])).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      errors: ['no more than 10 items allowed [json-pointer:/blocks/0/elements]'],
    })
  })

  it('refuses an empty carousel and anything but cards in one', async () => {
    expect(await post([carousel([])])).toMatchObject({ error: 'invalid_blocks', errors: ['must provide at least 1 items [json-pointer:/blocks/0/elements]'] })
    expect(await post([carousel([{ type: 'section', text: mrkdwn('x') }])])).toMatchObject({ error: 'invalid_blocks', errors: [expect.stringContaining('[json-pointer:/blocks/0/elements/0/type]')] })
  })

  it('takes a card of 3 buttons and refuses 4', async () => {
    const buttons = (n: number) => Array.from({ length: n }, (_, i) => button(`B${i}`, `b${i}`))

    expect(await post([carousel([card(0, { actions: buttons(LIMIT.cardActions) })])])).toMatchObject({ ok: true })
    expect(await post([carousel([card(0, { actions: buttons(LIMIT.cardActions + 1) })])])).toMatchObject({ error: 'invalid_blocks', errors: ['no more than 3 items allowed [json-pointer:/blocks/0/elements/0/actions]'] })
  })

  it('holds card titles and subtitles to 150 characters and bodies to 200', async () => {
    expect(await post([carousel([card(0, { title: mrkdwn('t'.repeat(150)), subtitle: mrkdwn('s'.repeat(150)), body: mrkdwn('b'.repeat(200)) })])])).toMatchObject({ ok: true })

    expect(await post([carousel([card(0, { title: mrkdwn('t'.repeat(151)) })])])).toMatchObject({ errors: ['must be less than 151 characters [json-pointer:/blocks/0/elements/0/title/text]'] })
    expect(await post([carousel([card(0, { subtitle: mrkdwn('s'.repeat(151)) })])])).toMatchObject({ errors: ['must be less than 151 characters [json-pointer:/blocks/0/elements/0/subtitle/text]'] })
    expect(await post([carousel([card(0, { body: mrkdwn('b'.repeat(201)) })])])).toMatchObject({ errors: ['must be less than 201 characters [json-pointer:/blocks/0/elements/0/body/text]'] })
  })

  it('refuses a card with nothing to show, a select on a card, and the same action_id on two cards', async () => {
    expect(await post([carousel([{ type: 'card', subtitle: mrkdwn('only a subtitle') }])])).toMatchObject({ errors: ['must provide at least one of: hero_image, title, actions, body [json-pointer:/blocks/0/elements/0]'] })
    expect(await post([carousel([card(0, { actions: [{ type: 'static_select', action_id: 's', options: [] }] })])])).toMatchObject({ errors: [expect.stringContaining('[json-pointer:/blocks/0/elements/0/actions/0/type]')] })
    expect(await post([carousel([card(0), card(0)])])).toMatchObject({ errors: ['duplicate action_id: yes-0 [json-pointer:/blocks/0/elements/1/actions/0/action_id]'] })
  })

  it('refuses a carousel in a modal', async () => {
    const opened = await answer(web.views.open({ trigger_id: 'none', view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [carousel([card(0)])] } as never }))

    expect(opened).toMatchObject({ ok: false })
    expect(JSON.stringify(opened)).toContain('carousel blocks are only allowed in messages')
  })

  it('takes a data_table of 101 rows (header included) and refuses 102, where a table block stops at 100', async () => {
    expect(await post([dataTable(LIMIT.dataTableRows - 1)])).toMatchObject({ ok: true })
    expect(await post([dataTable(LIMIT.dataTableRows)])).toMatchObject({ error: 'invalid_blocks', errors: ['no more than 101 items allowed [json-pointer:/blocks/0/rows]'] })
    const table = { type: 'table', rows: dataTable(LIMIT.dataTableRows - 1).rows }
    expect(await post([table])).toMatchObject({ error: 'invalid_blocks', errors: ['no more than 100 items allowed [json-pointer:/blocks/0/rows]'] })
  })

  it('takes a data_table of 20 columns and refuses 21', async () => {
    const wide = (n: number) => ({ ...dataTable(1), rows: [Array.from({ length: n }, (_, i) => raw(`h${i}`)), Array.from({ length: n }, (_, i) => raw(`${i}`))] })

    expect(await post([wide(LIMIT.dataTableColumns)])).toMatchObject({ ok: true })
    expect(await post([wide(LIMIT.dataTableColumns + 1)])).toMatchObject({ errors: ['no more than 20 items allowed [json-pointer:/blocks/0/rows/0]', 'no more than 20 items allowed [json-pointer:/blocks/0/rows/1]'] })
  })

  it('refuses a data_table without a caption, with a header alone, with rich text in the header or with ragged rows', async () => {
    const { caption: _, ...noCaption } = dataTable(1)
    expect(await post([noCaption])).toMatchObject({ errors: ['missing required field: caption [json-pointer:/blocks/0]'] })
    expect(await post([dataTable(0)])).toMatchObject({ errors: ['must have at least 2 items (a header and a row) [json-pointer:/blocks/0/rows]'] })
    expect(await post([{ ...dataTable(1), rows: [[rich('step'), raw('risk')], [raw('1'), raw('low')]] }])).toMatchObject({ errors: ['rich_text cannot be used in the header row [json-pointer:/blocks/0/rows/0/0/type]'] })
    expect(await post([{ ...dataTable(1), rows: [[raw('step'), raw('risk')], [raw('1')]] }])).toMatchObject({ errors: ['must have as many items as the header row (2) [json-pointer:/blocks/0/rows/1]'] })
  })

  it('holds page_size to 1-100, cells to 10,000 characters, and a message to one table of either kind', async () => {
    expect(await post([dataTable(1, { page_size: 100 })])).toMatchObject({ ok: true })
    expect(await post([dataTable(1, { page_size: 101 })])).toMatchObject({ errors: ['must be an integer from 1 to 100 [json-pointer:/blocks/0/page_size]'] })
    expect(await post([dataTable(1, { page_size: 0 })])).toMatchObject({ errors: ['must be an integer from 1 to 100 [json-pointer:/blocks/0/page_size]'] })
    const long = (n: number) => ({ ...dataTable(1), rows: [[raw('a'), raw('b')], [raw('x'.repeat(n)), raw('y')]] })
    // 'a' + 'b' + 'y' are 3 characters of the 10,000.
    expect(await post([long(LIMIT.dataTableText - 3)])).toMatchObject({ ok: true })
    expect(await post([long(LIMIT.dataTableText - 2)])).toMatchObject({ errors: ['table cells must be less than 10001 characters in total [json-pointer:/blocks/0/rows]'] })
    expect(await post([dataTable(1), { type: 'table', rows: [[raw('a')]] }])).toMatchObject({ errors: ['no more than 1 table block allowed per message [json-pointer:/blocks/1/type]'] })
  })

  it('delivers a card button click as a block_actions payload naming the card', async () => {
    const posted = await answer(web.chat.postMessage({ channel: slack.defaultChannel, text: 'cards', blocks: [carousel([card(0, { block_id: 'card-0' }), card(1, { block_id: 'card-1' })])] as never }))
    const message = slack.messages(slack.defaultChannel).find((m) => m.ts === posted.ts)!
    const app = await startRawApp(slack)

    try {
      await slack.user('U0SANDBOX01').click(message, 'Yes', { actionId: 'yes-1' })

      expect(app.bodies).toHaveLength(1)
      expect(app.bodies[0]).toMatchObject({ type: 'block_actions', actions: [{ type: 'button', action_id: 'yes-1', block_id: 'card-1' }] })
    } finally {
      await app.client.disconnect()
    }
  })
})
