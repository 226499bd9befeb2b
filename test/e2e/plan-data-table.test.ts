import { describe, expect, it } from 'vitest'
import { LIMIT } from '../../blocks/limits.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { MODES, startRig } from '../support/e2e.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'

/** A plan whose risk table has 100 rows under its header: one more than a table block holds. */
const PLAN = `# Plan: migrate the shards\n\n| shard | risk |\n| --- | --- |\n${Array.from({ length: LIMIT.dataTableRows - 1 }, (_, i) => `| shard-${i + 1} | low |`).join('\n')}\n\nlast-line-marker\n`

describe.each(MODES)('a plan table past a table block’s rows in %s mode', (mode) => {
  it('posts it as a data_table the stand-in takes, with every row, and keeps it once approved', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [planReviewQuestion(PLAN)] })
    const card = await postedMessage(slack, channel)
    await slack.waitFor(() => (JSON.stringify(slack.messages(channel)).includes('last-line-marker') ? true : undefined))

    const parts = slack.messages(channel).filter((m) => m.ts === card.ts || m.thread_ts === card.ts)
    const dataTables = parts.flatMap((m) => (m.blocks ?? []).filter((b) => b.type === 'data_table'))
    expect(dataTables).toHaveLength(1)
    expect(dataTables[0]).toMatchObject({ caption: 'shard · risk', page_size: LIMIT.dataTablePageSize })
    expect((dataTables[0]!.rows as unknown[]).length).toBe(LIMIT.dataTableRows)
    expect(visibleText({ text: '', blocks: dataTables })).toContain('shard-100')

    await slack.user(ALICE).click(card, 'Approve')

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })
    const settled = await settledMessage(slack, channel, card.ts)
    expect((settled.blocks ?? []).filter((b) => b.type === 'data_table')).toEqual((card.blocks ?? []).filter((b) => b.type === 'data_table'))
  })
})
