import { describe, expect, it } from 'vitest'

import { checkMessagePayload, checkViewPayload, type PayloadProblem } from '../../blocks/check.js'
import { LIMIT } from '../../blocks/limits.js'

type Obj = Record<string, unknown>

const plain = (text: string): Obj => ({ type: 'plain_text', text })
const mrkdwn = (text: string): Obj => ({ type: 'mrkdwn', text })
const chars = (n: number, c = 'x'): string => c.repeat(n)
const option = (i: number, text = `Option ${i}`): Obj => ({ text: plain(text), value: String(i) })
const button = (text: string, extra: Obj = {}): Obj => ({ type: 'button', action_id: 'b', text: plain(text), ...extra })
const actions = (...elements: Obj[]): Obj => ({ type: 'actions', elements })
const message = (...blocks: Obj[]): { text: string; blocks: Obj[] } => ({ text: 'fallback', blocks })
const modal = (blocks: Obj[], extra: Obj = {}): Obj => ({ type: 'modal', title: plain('Title'), submit: plain('Send'), blocks, ...extra })
const input = (element: Obj, extra: Obj = {}): Obj => ({ type: 'input', block_id: 'in', label: plain('Label'), element, ...extra })

interface LimitCase {
  name: string
  /**
   * Written out from where the figure comes from (`source`), never read from
   * `LIMIT`: the stand-in validates with the same checker, so a wrong number
   * in the table would otherwise pass both.
   */
  limit: number
  source: string
  /** Problems for a payload at `n`. */
  check: (n: number) => PayloadProblem[]
  code?: PayloadProblem['code']
}

const cases: LimitCase[] = [
  { name: 'blocks per message', limit: 50, source: 'Slack docs, Block Kit: "up to 50 blocks in each message"', check: (n) => checkMessagePayload(message(...Array.from({ length: n }, () => ({ type: 'divider' })))) },
  { name: 'blocks per modal', limit: 100, source: 'Slack docs, Block Kit: "up to 100 blocks in modals"', check: (n) => checkViewPayload(modal(Array.from({ length: n }, () => ({ type: 'divider' })))), code: 'invalid_arguments' },
  { name: 'section text', limit: 3000, source: 'Slack docs, section block: text max 3000 characters', check: (n) => checkMessagePayload(message({ type: 'section', text: mrkdwn(chars(n)) })) },
  { name: 'section fields', limit: 10, source: 'Slack docs, section block: fields max 10 items', check: (n) => checkMessagePayload(message({ type: 'section', fields: Array.from({ length: n }, () => mrkdwn('f')) })) },
  { name: 'section field text', limit: 2000, source: 'Slack docs, section block: each field max 2000 characters', check: (n) => checkMessagePayload(message({ type: 'section', fields: [mrkdwn(chars(n))] })) },
  { name: 'header text', limit: 150, source: 'Slack docs, header block: text max 150 characters', check: (n) => checkMessagePayload(message({ type: 'header', text: plain(chars(n)) })) },
  { name: 'context elements', limit: 10, source: 'Slack docs, context block: elements max 10', check: (n) => checkMessagePayload(message({ type: 'context', elements: Array.from({ length: n }, () => mrkdwn('c')) })) },
  { name: 'context element text', limit: 2000, source: 'ours (Slack documents no figure for a context text element): the section field size', check: (n) => checkMessagePayload(message({ type: 'context', elements: [mrkdwn(chars(n))] })) },
  { name: 'actions elements', limit: 25, source: 'Slack docs, actions block: elements max 25', check: (n) => checkMessagePayload(message(actions(...Array.from({ length: n }, (_, i) => button('B', { action_id: `b${i}` }))))) },
  { name: 'block_id length', limit: 255, source: 'Slack docs, block_id / action_id / callback_id: max 255 characters', check: (n) => checkMessagePayload(message({ type: 'divider', block_id: chars(n) })) },
  { name: 'action_id length', limit: 255, source: 'Slack docs, block_id / action_id / callback_id: max 255 characters', check: (n) => checkMessagePayload(message(actions(button('B', { action_id: chars(n) })))) },
  { name: 'callback_id length', limit: 255, source: 'Slack docs, block_id / action_id / callback_id: max 255 characters', check: (n) => checkViewPayload(modal([], { callback_id: chars(n) })), code: 'invalid_arguments' },
  { name: 'button text', limit: 75, source: 'Slack docs, button element: text max 75 characters', check: (n) => checkMessagePayload(message(actions(button(chars(n))))) },
  { name: 'button value', limit: 2000, source: 'Slack docs, button element: value max 2000 characters', check: (n) => checkMessagePayload(message(actions(button('B', { value: chars(n) })))) },
  { name: 'option text', limit: 75, source: 'Slack docs, option object: text max 75 characters', check: (n) => checkMessagePayload(message(actions({ type: 'static_select', action_id: 's', options: [option(0, chars(n))] }))) },
  {
    name: 'option description',
    limit: 75, source: 'Slack docs, option object: description max 75 characters',
    check: (n) => checkMessagePayload(message(actions({ type: 'checkboxes', action_id: 'c', options: [{ ...option(0), description: plain(chars(n)) }] }))),
  },
  { name: 'option value', limit: 75, source: 'SDK types, option object: value max 75 (the docs now say 150; SLACK.md: use 75)', check: (n) => checkMessagePayload(message(actions({ type: 'static_select', action_id: 's', options: [{ text: plain('o'), value: chars(n) }] }))) },
  { name: 'static_select options', limit: 100, source: 'Slack docs, select menus: options max 100', check: (n) => checkMessagePayload(message(actions({ type: 'static_select', action_id: 's', options: Array.from({ length: n }, (_, i) => option(i)) }))) },
  {
    name: 'multi_static_select options',
    limit: 100, source: 'Slack docs, select menus: options max 100',
    check: (n) => checkMessagePayload(message(actions({ type: 'multi_static_select', action_id: 's', options: Array.from({ length: n }, (_, i) => option(i)) }))),
  },
  { name: 'checkboxes options', limit: 10, source: 'Slack docs, checkboxes / radio buttons: options max 10', check: (n) => checkMessagePayload(message(actions({ type: 'checkboxes', action_id: 'c', options: Array.from({ length: n }, (_, i) => option(i)) }))) },
  { name: 'radio_buttons options', limit: 10, source: 'Slack docs, checkboxes / radio buttons: options max 10', check: (n) => checkMessagePayload(message(actions({ type: 'radio_buttons', action_id: 'r', options: Array.from({ length: n }, (_, i) => option(i)) }))) },
  { name: 'overflow options', limit: 5, source: 'Slack docs, overflow menu: options max 5', check: (n) => checkMessagePayload(message(actions({ type: 'overflow', action_id: 'o', options: Array.from({ length: n }, (_, i) => option(i)) }))) },
  { name: 'placeholder', limit: 150, source: 'Slack docs, select menus: placeholder max 150 characters', check: (n) => checkMessagePayload(message(actions({ type: 'static_select', action_id: 's', placeholder: plain(chars(n)), options: [option(0)] }))) },
  { name: 'plain_text_input max_length', limit: 3000, source: 'Slack docs, plain-text input: max_length max 3000', check: (n) => checkViewPayload(modal([input({ type: 'plain_text_input', action_id: 't', max_length: n })])), code: 'invalid_arguments' },
  { name: 'input label', limit: 2000, source: 'Slack docs, input block: label max 2000 characters', check: (n) => checkViewPayload(modal([input({ type: 'plain_text_input', action_id: 't' }, { label: plain(chars(n)) })])), code: 'invalid_arguments' },
  { name: 'input hint', limit: 2000, source: 'Slack docs, input block: hint max 2000 characters', check: (n) => checkViewPayload(modal([input({ type: 'plain_text_input', action_id: 't' }, { hint: plain(chars(n)) })])), code: 'invalid_arguments' },
  { name: 'modal title', limit: 24, source: 'Slack docs, view object: title max 24 characters', check: (n) => checkViewPayload(modal([], { title: plain(chars(n)) })), code: 'invalid_arguments' },
  { name: 'modal submit', limit: 24, source: 'Slack docs, view object: submit / close max 24 characters', check: (n) => checkViewPayload(modal([], { submit: plain(chars(n)) })), code: 'invalid_arguments' },
  { name: 'modal close', limit: 24, source: 'Slack docs, view object: submit / close max 24 characters', check: (n) => checkViewPayload(modal([], { close: plain(chars(n)) })), code: 'invalid_arguments' },
  { name: 'private_metadata', limit: 3000, source: 'Slack docs, view object: private_metadata max 3000 characters', check: (n) => checkViewPayload(modal([], { private_metadata: chars(n) })), code: 'invalid_arguments' },
  {
    name: 'markdown blocks in total',
    limit: 12000, source: 'Slack docs, markdown block: 12,000 characters cumulative per payload',
    check: (n) => checkMessagePayload(message({ type: 'markdown', text: chars(n - Math.floor(n / 2)) }, { type: 'markdown', text: chars(Math.floor(n / 2)) })),
  },
  {
    name: 'text of the whole message',
    limit: 12000, source: 'undocumented (SLACK.md): msg_blocks_too_long at about 12-13k characters',
    check: (n) => checkMessagePayload(message(...Array.from({ length: Math.ceil(n / 3000) }, (_, i) => ({ type: 'section', text: mrkdwn(chars(Math.min(3000, n - i * 3000))) })))),
    code: 'msg_blocks_too_long',
  },
  {
    name: 'rich_text text element',
    limit: 3000, source: 'ours (Slack documents no figure): the section text size',
    check: (n) => checkMessagePayload(message({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: chars(n) }] }] })),
  },
  {
    name: 'rich_text_list indent',
    limit: 8, source: 'ours (Slack documents no figure): the clients show nine levels, 0-8',
    check: (n) => checkMessagePayload(message({ type: 'rich_text', elements: [{ type: 'rich_text_list', style: 'bullet', indent: n, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'item' }] }] }] })),
  },
  { name: 'container title', limit: 150, source: 'Slack docs, container block: title "Maximum of 150 characters"', check: (n) => checkMessagePayload(message({ type: 'container', title: plain(chars(n)), child_blocks: [{ type: 'divider' }] })) },
  { name: 'container subtitle', limit: 150, source: 'Slack docs, container block: subtitle "Maximum of 150 characters"', check: (n) => checkMessagePayload(message({ type: 'container', title: plain('T'), subtitle: mrkdwn(chars(n)), child_blocks: [{ type: 'divider' }] })) },
  { name: 'container child_blocks', limit: 10, source: 'Slack docs, container block: child_blocks "Maximum of 10 blocks"', check: (n) => checkMessagePayload(message({ type: 'container', title: plain('T'), child_blocks: Array.from({ length: n }, () => ({ type: 'divider' })) })) },
  { name: 'confirm title', limit: 100, source: 'Slack docs, confirmation dialog object: title max 100 characters', check: (n) => checkMessagePayload(message(actions(button('B', { confirm: { title: plain(chars(n)), text: plain('Sure?'), confirm: plain('Yes'), deny: plain('No') } })))) },
  { name: 'confirm text', limit: 300, source: 'Slack docs, confirmation dialog object: text max 300 characters', check: (n) => checkMessagePayload(message(actions(button('B', { confirm: { title: plain('T'), text: plain(chars(n)), confirm: plain('Yes'), deny: plain('No') } })))) },
  { name: 'confirm button', limit: 30, source: 'Slack docs, confirmation dialog object: confirm / deny max 30 characters', check: (n) => checkMessagePayload(message(actions(button('B', { confirm: { title: plain('T'), text: plain('Sure?'), confirm: plain(chars(n)), deny: plain('No') } })))) },
]

describe('checkMessagePayload and checkViewPayload limits', () => {
  for (const { name, limit, source, check, code } of cases) {
    it(`accepts ${limit} for ${name} (${source})`, () => {
      expect(check(limit)).toEqual([])
    })

    it(`refuses ${limit + 1} for ${name} with ${code ?? 'invalid_blocks'} (${source})`, () => {
      const problems = check(limit + 1)

      expect(problems.length).toBeGreaterThan(0)
      expect(problems.every((p) => p.code === (code ?? 'invalid_blocks'))).toBe(true)
    })
  }
})

describe('checkMessagePayload', () => {
  it('words problems as Slack does, with a JSON pointer', () => {
    expect(checkMessagePayload(message({ type: 'section', text: mrkdwn(chars(3001)) }))).toEqual([
      { code: 'invalid_blocks', message: '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]' },
    ])
  })

  it('counts characters, not UTF-16 units, so emoji fit as Slack counts them', () => {
    expect(checkMessagePayload(message(actions(button('🚀'.repeat(75)))))).toEqual([])
  })

  it('accepts a message with text only', () => {
    expect(checkMessagePayload({ text: 'hello' })).toEqual([])
  })

  it('refuses an unknown block type', () => {
    expect(checkMessagePayload(message({ type: 'sections', text: mrkdwn('x') }))[0]?.message).toBe('[ERROR] unsupported type: sections [json-pointer:/blocks/0/type]')
  })

  it('refuses a section with neither text nor fields', () => {
    expect(checkMessagePayload(message({ type: 'section' }))).toHaveLength(1)
  })

  it('refuses mrkdwn where Slack needs plain_text: header and button text', () => {
    expect(checkMessagePayload(message({ type: 'header', text: mrkdwn('Title') }))[0]?.message).toContain('/blocks/0/text/type')
    expect(checkMessagePayload(message(actions({ type: 'button', action_id: 'b', text: mrkdwn('Go') })))[0]?.message).toContain('must be plain_text')
  })

  it('refuses a button without text and a select option without text', () => {
    expect(checkMessagePayload(message(actions({ type: 'button', action_id: 'b' })))).toHaveLength(1)
    expect(checkMessagePayload(message(actions({ type: 'static_select', action_id: 's', options: [{ value: '1' }] })))).toHaveLength(1)
  })

  it('refuses an input block, which belongs in modals', () => {
    expect(checkMessagePayload(message(input({ type: 'plain_text_input', action_id: 't' })))).toHaveLength(1)
  })

  it('refuses a duplicate action_id anywhere in the message, and a duplicate block_id', () => {
    const twice = checkMessagePayload(message(actions(button('A', { action_id: 'x' })), { type: 'section', text: mrkdwn('s'), accessory: button('B', { action_id: 'x' }) }))
    const blocks = checkMessagePayload(message({ type: 'divider', block_id: 'd' }, { type: 'divider', block_id: 'd' }))

    expect(twice.map((p) => p.message)).toEqual(['[ERROR] duplicate action_id: x [json-pointer:/blocks/1/accessory/action_id]'])
    expect(blocks).toHaveLength(1)
  })

  it('refuses a plain_text_input in an actions block', () => {
    expect(checkMessagePayload(message(actions({ type: 'plain_text_input', action_id: 't' })))).toHaveLength(1)
  })

  it('accepts every rich_text element shape with text, link and emoji elements and styles', () => {
    const inline = [
      { type: 'text', text: 'bold', style: { bold: true, italic: true, strike: false, code: false } },
      { type: 'link', url: 'https://example.com', text: 'a link' },
      { type: 'emoji', name: 'rocket' },
    ]
    const rich = {
      type: 'rich_text',
      elements: [
        { type: 'rich_text_section', elements: inline },
        { type: 'rich_text_list', style: 'ordered', indent: 1, elements: [{ type: 'rich_text_section', elements: inline }] },
        { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'const x = 1' }] },
        { type: 'rich_text_quote', elements: inline },
      ],
    }

    expect(checkMessagePayload(message(rich))).toEqual([])
  })

  it('refuses rich_text lists with an unknown style, nested lists and unknown inline elements', () => {
    const list = (style: string, items: Obj[]): Obj => ({ type: 'rich_text', elements: [{ type: 'rich_text_list', style, elements: items }] })
    const section = { type: 'rich_text_section', elements: [{ type: 'text', text: 'x' }] }

    expect(checkMessagePayload(message(list('dashed', [section])))).toHaveLength(1)
    expect(checkMessagePayload(message(list('bullet', [{ type: 'rich_text_list', style: 'bullet', elements: [section] }])))).toHaveLength(1)
    expect(checkMessagePayload(message({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'image', url: 'x' }] }] }))).toHaveLength(1)
    expect(checkMessagePayload(message({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'x', style: { loud: true } }] }] }))).toHaveLength(1)
  })

  it('refuses blocks that are not an array', () => {
    expect(checkMessagePayload({ text: 'x', blocks: { type: 'divider' } })).toHaveLength(1)
  })
})

describe('checkViewPayload', () => {
  it('accepts a modal with an input, a select and a section accessory', () => {
    const view = modal([
      { type: 'section', text: mrkdwn('Pick one'), accessory: { type: 'radio_buttons', action_id: 'r', options: [option(0), option(1)] } },
      input({ type: 'plain_text_input', action_id: 't', multiline: true, max_length: 500 }),
      input({ type: 'static_select', action_id: 's', placeholder: plain('Choose'), options: [option(0)] }, { block_id: 'sel', optional: true }),
    ])

    expect(checkViewPayload(view)).toEqual([])
  })

  it('refuses a modal with input blocks but no submit button', () => {
    const { submit: _submit, ...view } = modal([input({ type: 'plain_text_input', action_id: 't' })])

    expect(checkViewPayload(view)).toHaveLength(1)
  })

  it('refuses a markdown block, which belongs in messages', () => {
    expect(checkViewPayload(modal([{ type: 'markdown', text: '# hi' }]))).toHaveLength(1)
  })

  it('refuses a view that is not a modal, or has no title', () => {
    expect(checkViewPayload({ ...modal([]), type: 'home' })).toHaveLength(1)
    const { title: _title, ...untitled } = modal([])
    expect(checkViewPayload(untitled)[0]?.message).toBe('[ERROR] missing required field: title [json-pointer:/view]')
  })

  it('refuses a duplicate action_id within the view', () => {
    const view = modal([input({ type: 'plain_text_input', action_id: 't' }, { block_id: 'a' }), input({ type: 'plain_text_input', action_id: 't' }, { block_id: 'b' })])

    expect(checkViewPayload(view).map((p) => p.code)).toEqual(['invalid_arguments'])
  })
})

describe('checkMessagePayload: the table block', () => {
  const cell = (text: string) => ({ type: 'raw_text', text })
  const tableOf = (rows: number, cells: number) => ({ type: 'table', rows: Array.from({ length: rows }, (_, r) => Array.from({ length: cells }, (_, c) => cell(`${r}.${c}`))) })

  it(`takes ${LIMIT.tableRows} rows of ${LIMIT.tableCells} cells and refuses one row or one cell more`, () => {
    expect(checkMessagePayload({ blocks: [tableOf(LIMIT.tableRows, LIMIT.tableCells)] })).toEqual([])
    expect(checkMessagePayload({ blocks: [tableOf(LIMIT.tableRows + 1, 2)] })).toHaveLength(1)
    expect(checkMessagePayload({ blocks: [tableOf(2, LIMIT.tableCells + 1)] })).toHaveLength(2)
  })

  it('takes rich_text cells and refuses other cell types', () => {
    const rich = { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'low', style: { bold: true } }] }] }

    expect(checkMessagePayload({ blocks: [{ type: 'table', rows: [[cell('risk')], [rich]] }] })).toEqual([])
    expect(checkMessagePayload({ blocks: [{ type: 'table', rows: [[{ type: 'mrkdwn', text: '*x*' }]] }] })[0]?.message).toContain('must be one of: raw_text, rich_text')
  })

  it('refuses a second table in one message, and a table in a modal', () => {
    expect(checkMessagePayload({ blocks: [tableOf(2, 2), tableOf(2, 2)] })[0]?.message).toContain('no more than 1 table block')
    expect(checkViewPayload({ type: 'modal', title: { type: 'plain_text', text: 'T' }, blocks: [tableOf(2, 2)] }).map((p) => p.message).join()).toContain('only allowed in messages')
  })

  it(`takes ${LIMIT.tableText} characters of cell text in one table and refuses one more`, () => {
    const ofText = (n: number) => ({ type: 'table', rows: [[cell('x'.repeat(n - 1))], [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'y' }] }] }]] })

    expect(checkMessagePayload({ blocks: [ofText(LIMIT.tableText)] })).toEqual([])
    expect(checkMessagePayload({ blocks: [ofText(LIMIT.tableText + 1)] }).map((p) => p.message)).toEqual([
      `[ERROR] table cells must be less than ${LIMIT.tableText + 1} characters in total [json-pointer:/blocks/0/rows]`,
    ])
  })

  it('refuses an empty cell text and a null column setting (the reference says null skips a column; Slack refuses it)', () => {
    expect(checkMessagePayload({ blocks: [{ type: 'table', rows: [[cell('')]] }] }).map((p) => p.message)).toEqual(['[ERROR] must be more than 0 characters [json-pointer:/blocks/0/rows/0/0/text]'])
    expect(checkMessagePayload({ blocks: [{ ...tableOf(2, 2), column_settings: [null, { align: 'right' }] }] }).map((p) => p.message)).toEqual(['[ERROR] must be an object [json-pointer:/blocks/0/column_settings/0]'])
  })

  it('checks column settings: at most one per column, known alignments', () => {
    const settings = (n: number, align = 'left') => ({ ...tableOf(2, 2), column_settings: Array.from({ length: n }, () => ({ align, is_wrapped: true })) })

    expect(checkMessagePayload({ blocks: [settings(LIMIT.tableColumnSettings)] })).toEqual([])
    expect(checkMessagePayload({ blocks: [settings(LIMIT.tableColumnSettings + 1)] })).toHaveLength(1)
    expect(checkMessagePayload({ blocks: [settings(1, 'middle')] })).toHaveLength(1)
  })
})

describe('checkMessagePayload: the container block', () => {
  const container = (extra: Obj = {}): Obj => ({ type: 'container', title: plain('Command'), child_blocks: [{ type: 'section', text: mrkdwn('ls') }], ...extra })
  const messages = (problems: PayloadProblem[]): string[] => problems.map((p) => p.message)

  it('takes a collapsible container with a subtitle, a width and an action inside', () => {
    expect(checkMessagePayload(message(container({ subtitle: plain('ls -la'), width: 'full', is_collapsible: true, default_collapsed: true, child_blocks: [actions(button('Go'))] })))).toEqual([])
  })

  it('needs a title or a rich_text title, and takes the rich one alone', () => {
    const { title: _title, ...untitled } = container()
    const rich = { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Command', style: { bold: true } }] }] }

    expect(messages(checkMessagePayload(message(untitled)))).toEqual(['[ERROR] missing required field: title [json-pointer:/blocks/0]'])
    expect(checkMessagePayload(message({ ...untitled, rich_text_title: rich }))).toEqual([])
  })

  it('checks each child as a block of the message: a long section inside is refused where it stands', () => {
    expect(messages(checkMessagePayload(message(container({ child_blocks: [{ type: 'section', text: mrkdwn(chars(3001)) }] }))))).toEqual([
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/child_blocks/0/text/text]',
    ])
  })

  it('refuses a container inside a container, an unknown width, and default_collapsed without is_collapsible', () => {
    expect(messages(checkMessagePayload(message(container({ child_blocks: [container()] }))))).toEqual(['[ERROR] unsupported type in a container: container [json-pointer:/blocks/0/child_blocks/0/type]'])
    expect(messages(checkMessagePayload(message(container({ width: 'huge' }))))).toEqual(['[ERROR] must be one of: narrow, standard, wide, full [json-pointer:/blocks/0/width]'])
    expect(messages(checkMessagePayload(message(container({ default_collapsed: true }))))).toEqual(['[ERROR] requires is_collapsible to be true [json-pointer:/blocks/0/default_collapsed]'])
  })

  it('counts the children\'s text toward the message total, and takes containers only in messages', () => {
    const heavy = container({ child_blocks: Array.from({ length: 5 }, () => ({ type: 'section', text: mrkdwn(chars(3000)) })) })

    expect(checkMessagePayload(message(heavy)).map((p) => p.code)).toEqual(['msg_blocks_too_long'])
    expect(messages(checkViewPayload(modal([container()])))).toEqual(['[ERROR] unsupported type: container (container blocks are only allowed in messages) [json-pointer:/view/blocks/0/type]'])
  })
})
