import { describe, expect, it } from 'vitest'
import { checkMessagePayload, checkViewPayload } from '../../blocks/check.js'
import { batchModal, fallbackText, feedbackModal, LIMIT, questionMessage, settledMessage } from '../../blocks/index.js'
import { markdownBlocks } from '../../blocks/markdown/index.js'
import { ask, elementsOfType, planReview, question, richText } from './fixtures.js'

const cell = (text: string, style?: Record<string, boolean>) => ({
  type: 'rich_text',
  elements: [{ type: 'rich_text_section', elements: [style === undefined ? { type: 'text', text } : { type: 'text', text, style }] }],
})
const head = (text: string) => cell(text, { bold: true })

/** A GFM table of `rows` body rows and `columns` columns, each cell `r.c`. */
function gfm(rows: number, columns: number, text = (r: number, c: number) => `${r}.${c}`): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  const header = line(Array.from({ length: columns }, (_, c) => `h${c}`))
  const rule = line(Array.from({ length: columns }, () => '---'))
  return [header, rule, ...Array.from({ length: rows }, (_, r) => line(Array.from({ length: columns }, (_, c) => text(r, c))))].join('\n')
}

const blocksOf = (md: string) => markdownBlocks(md, { tables: 'block' })
const types = (blocks: unknown[]) => blocks.map((b) => (b as { type: string }).type)

describe('a Markdown table in a message', () => {
  it('becomes a table block: the header row in bold, each column aligned as the rule says', () => {
    expect(blocksOf('| step | owner | days |\n|:-|:-:|-:|\n| migrate | ops | 2 |')).toEqual([
      {
        type: 'table',
        rows: [
          [head('step'), head('owner'), head('days')],
          [cell('migrate'), cell('ops'), cell('2')],
        ],
        column_settings: [{ align: 'left' }, { align: 'center' }, { align: 'right' }],
      },
    ])
  })

  it('has no column settings when every column is left-aligned and narrow', () => {
    expect(blocksOf('| a | b |\n|---|---|\n| 1 | 2 |')).toEqual([{ type: 'table', rows: [[head('a'), head('b')], [cell('1'), cell('2')]] }])
  })

  it('keeps bold, code and links in cells, and shows a link label with its url', () => {
    const [table] = blocksOf('| what | where |\n|---|---|\n| **bold** and `code` | [docs](https://docs.example/a) |')

    expect((table as { rows: unknown[][] }).rows[1]).toEqual([
      { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'bold', style: { bold: true } }, { type: 'text', text: ' and ' }, { type: 'text', text: 'code', style: { code: true } }] }] },
      { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'docs (' }, { type: 'link', url: 'https://docs.example/a', text: 'https://docs.example/a' }, { type: 'text', text: ')' }] }] },
    ])
  })

  it('fills an empty cell and a short row with a space (Slack refuses an empty text), keeping every cell of a long row', () => {
    const [table] = blocksOf('| a | b |\n|---|---|\n| | x |\n| 1 |\n| 1 | 2 | 3 |')

    expect((table as { rows: unknown[][] }).rows).toEqual([
      [head('a'), head('b'), cell(' ')],
      [cell(' '), cell('x'), cell(' ')],
      [cell('1'), cell(' '), cell(' ')],
      [cell('1'), cell('2'), cell('3')],
    ])
  })

  it(`wraps a column wider than ${LIMIT.tableWrapWidth} columns and leaves narrow ones on one line`, () => {
    const narrow = 'x'.repeat(LIMIT.tableWrapWidth)
    const wide = 'y'.repeat(LIMIT.tableWrapWidth + 1)

    const [table] = blocksOf(`| a | b | c |\n|---|--:|---|\n| ${narrow} | ${wide} | 1 |`)

    expect((table as { column_settings: unknown }).column_settings).toEqual([{ align: 'left' }, { align: 'right', is_wrapped: true }])
  })

  it(`takes ${LIMIT.tableRows} rows (the header included), is a data_table at ${LIMIT.dataTableRows} (decision 0077) and monospace text past it`, () => {
    expect(types(blocksOf(gfm(LIMIT.tableRows - 1, 2)))).toEqual(['table'])
    expect(types(blocksOf(gfm(LIMIT.dataTableRows - 1, 2)))).toEqual(['data_table'])
    expect(types(blocksOf(gfm(LIMIT.dataTableRows, 2)))).toEqual(['rich_text'])
    expect(elementsOfType(blocksOf(gfm(LIMIT.dataTableRows, 2)), 'rich_text_preformatted')).toHaveLength(1)
  })

  it(`takes ${LIMIT.tableCells} columns and is monospace text at one more`, () => {
    expect(types(blocksOf(gfm(2, LIMIT.tableCells)))).toEqual(['table'])
    expect(types(blocksOf(gfm(2, LIMIT.tableCells + 1)))).toEqual(['rich_text'])
  })

  it(`takes ${LIMIT.tableText} characters of cell text and is monospace text at one more`, () => {
    // Header h0 h1 (4 characters) and 10 rows of two cells.
    const fill = (total: number) => (r: number, c: number) => 'x'.repeat(r === 0 && c === 0 ? total - 4 - 19 * 400 : 400)

    expect(types(blocksOf(gfm(10, 2, fill(LIMIT.tableText))))).toEqual(['table'])
    expect(types(blocksOf(gfm(10, 2, fill(LIMIT.tableText + 1)))).filter((t) => t !== 'rich_text')).toEqual([])
  })

  it(`is monospace text when one cell is longer than a rich text element (${LIMIT.richTextElementText})`, () => {
    expect(types(blocksOf(gfm(1, 1, () => 'x'.repeat(LIMIT.richTextElementText))))).toEqual(['table'])
    expect(types(blocksOf(gfm(1, 1, () => 'x'.repeat(LIMIT.richTextElementText + 1)))).filter((t) => t !== 'rich_text')).toEqual([])
  })

  it('renders a second table of the same message as monospace text', () => {
    const blocks = blocksOf('| a |\n|---|\n| 1 |\n\nbetween\n\n| b |\n|---|\n| 2 |')

    expect(types(blocks)).toEqual(['table', 'rich_text', 'rich_text'])
    expect(richText(blocks[2])).toBe('| b |\n|---|\n| 2 |')
  })

  it('is monospace text inside a list item or a quote, where a block cannot go', () => {
    const inList = blocksOf('- item\n\n  | a |\n  |---|\n  | 1 |\n- next')
    const inQuote = blocksOf('> | a |\n> |---|\n> | 1 |')

    expect(types(inList)).toEqual(['rich_text'])
    expect(elementsOfType(inList, 'rich_text_preformatted').map(richText)).toEqual(['| a |\n|---|\n| 1 |'])
    expect(types(inQuote)).toEqual(['rich_text'])
    expect(richText(inQuote)).toBe('| a |\n|---|\n| 1 |')
  })

  it('is monospace text unless table blocks are asked for (modals take none)', () => {
    expect(types(markdownBlocks('| a |\n|---|\n| 1 |'))).toEqual(['rich_text'])
  })
})

describe('tables on a plan card and in its thread', () => {
  const plan = (md: string) => planReview(md)

  it('puts a small table on the card as one table block, which Slack accepts', () => {
    const { message, thread } = questionMessage(plan('# Plan\n\n| risk | mitigation |\n|---|---|\n| CI cache | key on the lockfile |'))

    expect(types(message.blocks).filter((t) => t === 'table')).toEqual(['table'])
    expect(thread).toEqual([])
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('keeps at most one table block in the card and in every thread part; the others are monospace text', () => {
    const section = (n: number) => `## Part ${n}\n\n${'Prose. '.repeat(300)}\n\n${gfm(20, 3, (r, c) => `cell ${n}.${r}.${c}`)}`
    const view = plan(Array.from({ length: 12 }, (_, n) => section(n)).join('\n\n'))

    const { message, thread } = questionMessage(view)

    for (const payload of [message, ...thread]) {
      expect(types(payload.blocks).filter((t) => t === 'table').length).toBeLessThanOrEqual(LIMIT.tablesPerMessage)
      expect(checkMessagePayload(payload)).toEqual([])
    }
    const all = [message, ...thread].flatMap((p) => p.blocks)
    // Every table is shown, as a block or as text, once.
    for (let n = 0; n < 12; n++) expect(richText(all).split(`cell ${n}.19.2`).length - 1).toBe(1)
  })

  it('gives the settled card the same tables as the open one', () => {
    const view = plan(`${gfm(3, 2)}\n\ntext\n\n${gfm(3, 2)}`)

    const open = questionMessage(view).message.blocks
    const settled = settledMessage(view, { kind: 'aborted', at: 0 }).blocks

    expect(types(settled).filter((t) => t === 'table' || t === 'rich_text')).toEqual(types(open).filter((t) => t === 'table' || t === 'rich_text'))
  })

  it('puts a table of a batch question in the listing, and monospace text in its form (a modal takes no table)', () => {
    const view = ask({ questions: [question({ id: 'a', detail: gfm(2, 2) }), question({ id: 'b', detail: gfm(2, 2) })] })

    const card = questionMessage(view).message
    const form = batchModal(view, 0).view

    expect(types(card.blocks).filter((t) => t === 'table')).toEqual(['table'])
    expect(checkMessagePayload(card)).toEqual([])
    expect(elementsOfType(form, 'table')).toEqual([])
    expect(checkViewPayload(form)).toEqual([])
    expect(checkViewPayload(feedbackModal(plan(gfm(2, 2))))).toEqual([])
  })

  it('names the plan in the notification text, and keeps every table as written in the attached file', () => {
    const tables = Array.from({ length: 24 }, (_, n) => `## Part ${n}\n\n${'Prose. '.repeat(300)}\n\n${gfm(20, 3, (r, c) => `cell ${n}.${r}.${c}`)}`).join('\n\n')
    const view = plan(`# Move to pnpm\n\n${tables}`)

    const rendered = questionMessage(view)

    expect(fallbackText(view)).toBe('An agent asks for a plan review: Move to pnpm')
    expect(rendered.message.text).toBe(fallbackText(view))
    expect(rendered.file?.content).toContain(gfm(20, 3, (r, c) => `cell 23.${r}.${c}`))
  })
})
