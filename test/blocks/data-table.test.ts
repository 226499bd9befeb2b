import { describe, expect, it } from 'vitest'
import { checkMessagePayload } from '../../blocks/check.js'
import { LIMIT } from '../../blocks/limits.js'
import { questionMessage } from '../../blocks/index.js'
import { markdownUnits } from '../../blocks/markdown/index.js'
import { planReview } from './fixtures.js'

/** A GFM table of a header and `n` rows. */
function table(n: number, header = '| step | **risk** |'): string {
  return `${header}\n| --- | --- |\n${Array.from({ length: n }, (_, i) => `| ${i + 1} | \`low\` |`).join('\n')}`
}

function tables(markdown: string): Record<string, unknown>[] {
  return markdownUnits(markdown, { tables: 'block' }).flatMap((u) => (u.kind === 'table' ? [u.block as unknown as Record<string, unknown>] : []))
}

describe('plan tables as table and data_table blocks', () => {
  it('keeps the table block up to 100 rows, header included', () => {
    expect(tables(table(LIMIT.tableRows - 1)).map((b) => b.type)).toEqual(['table'])
  })

  it('makes a data_table of a table with 100 rows under its header, which a table block refuses', () => {
    const [block] = tables(table(LIMIT.dataTableRows - 1))

    expect(block).toMatchObject({ type: 'data_table', caption: 'step · risk', page_size: LIMIT.dataTablePageSize })
    const rows = block!.rows as Record<string, unknown>[][]
    expect(rows).toHaveLength(LIMIT.dataTableRows)
    expect(rows[0]).toEqual([{ type: 'raw_text', text: 'step' }, { type: 'raw_text', text: 'risk' }])
    expect(rows[100]![1]).toEqual({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'low', style: { code: true } }] }] })
  })

  it('draws a table past the data_table’s rows as monospace text', () => {
    expect(tables(table(LIMIT.dataTableRows))).toEqual([])
  })

  it('draws a table past 10,000 characters of cells as monospace text, whichever block its rows would take', () => {
    const wide = (n: number) => `| a | b |\n| - | - |\n${Array.from({ length: n }, () => `| ${'x'.repeat(120)} | y |`).join('\n')}`

    expect(tables(wide(LIMIT.dataTableRows - 1))).toEqual([])
  })

  it('posts a plan card whose data_table the checker takes, and makes a second large table monospace', () => {
    const plan = `# Rollout\n\n${table(LIMIT.dataTableRows - 1)}\n\n## Again\n\n${table(LIMIT.dataTableRows - 1)}\n`

    const { message, thread } = questionMessage(planReview(plan))

    const all = [message, ...thread]
    for (const part of all) expect(checkMessagePayload(part)).toEqual([])
    const dataTables = all.flatMap((m) => m.blocks.filter((b) => b.type === 'data_table'))
    expect(dataTables.length).toBeGreaterThanOrEqual(1)
    for (const part of all) expect(part.blocks.filter((b) => b.type === 'table' || b.type === 'data_table').length).toBeLessThanOrEqual(1)
  })
})
