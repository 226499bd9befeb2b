import { describe, expect, it } from 'vitest'
import { encodeInputBlockId } from '../../blocks/ids.js'
import { MODES, startRig } from '../support/e2e.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'

const ALICE = 'U0SANDBOX01'

const batch = [
  { id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] },
  { id: 'ci', question: 'Which CI checks?', multiSelect: true, options: [{ label: 'lint' }, { label: 'test' }, { label: 'bench' }] },
  { id: 'name', question: 'Project name?', detail: 'Lower case, *no spaces*.' },
]

const PLAN = `# Plan: add a cache

1. Add \`cache.ts\` with an LRU map.
2. Wire it into the **fetch** path.

\`\`\`ts
export const cache = new Map<string, string>()
\`\`\`

| step | risk |
| --- | --- |
| 1 | low |
`

function planReview(plan = PLAN) {
  return planReviewQuestion(plan)
}

const cell = (text: string, style?: { bold: true }) => ({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [style ? { type: 'text', text, style } : { type: 'text', text }] }] })
/** The table blocks of a message, without the block_id the stand-in gives every block (as Slack does). */
const tablesIn = (message: { blocks?: Record<string, unknown>[] }) => (message.blocks ?? []).filter((b) => b.type === 'table').map(({ block_id: _, ...b }) => b)

describe.each(MODES)('batches and plan reviews in %s mode', (mode) => {
  it('answers a batch through the form: a skipped question, and an inline error fixed before submitting', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: batch })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    expect(visibleText(message)).toContain('Project name?')

    await alice.click(message, /Answer/)
    await slack.waitFor(() => alice.modal())
    await alice.choose('modal', 'npm')
    await alice.toggle('modal', 'test')
    await alice.toggle('modal', 'lint')
    alice.fill(encodeInputBlockId({ kind: 'other-text', question: 1 }), 'only what is fast')
    const refused = await alice.submit()

    expect(refused).toMatchObject({ response_action: 'errors' })
    expect(Object.keys(alice.modalErrors() ?? {})).toHaveLength(1)

    await alice.toggle('modal', 'test')
    await alice.toggle('modal', 'lint')
    await alice.submit()

    expect(await answer).toEqual({
      answers: [
        { id: 'pm', selected: ['npm'] },
        { id: 'ci', selected: [], custom: 'only what is fast' },
        { id: 'name', selected: [] },
      ],
    })
    const final = visibleText(await settledMessage(slack, channel, message.ts))
    expect(final).toContain('npm')
    expect(final).toContain('only what is fast')
  })

  it('approves a plan with its Approve button', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [planReview()] })
    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain('Plan: add a cache')
    expect(visibleText(card)).toContain('export const cache = new Map<string, string>()')

    await slack.user(ALICE).click(card, 'Approve')

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toMatch(/Approved by/)
  })

  it("posts a plan's table as a table block the stand-in accepts, a second table as monospace text, and keeps both once approved", async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const plan = `${PLAN}\n## Rollout\n\n| env | day |\n|:--|--:|\n| staging | Monday |\n| production | Tuesday |\n`
    const answer = bridge.provider.ask({ questions: [planReview(plan)] })
    const card = await postedMessage(slack, channel)

    expect(tablesIn(card)).toEqual([{ type: 'table', rows: [[cell('step', { bold: true }), cell('risk', { bold: true })], [cell('1'), cell('low')]] }])
    expect(visibleText(card)).toContain('| production | Tuesday |')

    await slack.user(ALICE).click(card, 'Approve')

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })
    const settled = await settledMessage(slack, channel, card.ts)
    expect(tablesIn(settled)).toEqual(tablesIn(card))
    expect(visibleText(settled)).toContain('| production | Tuesday |')
  })

  it('posts a long plan full of tables with at most one table block in the card and in each thread part', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const table = (i: number) => `| item | owner | note |\n|---|:-:|---|\n${Array.from({ length: 12 }, (_, r) => `| item ${i}.${r} | ops | ${'keep the old path working until the switch; '.repeat(2)} |`).join('\n')}`
    const plan = `# Many tables\n\n${Array.from({ length: 16 }, (_, i) => `## Table ${i}\n\n${table(i)}\n\nend${i}marker`).join('\n\n')}`

    void bridge.provider.ask({ questions: [planReview(plan)] }).catch(() => undefined)
    const card = await postedMessage(slack, channel)
    await slack.waitFor(() => (JSON.stringify(slack.messages(channel)).includes('end15marker') ? true : undefined), { timeoutMs: 15_000 })

    const messages = slack.messages(channel).filter((m) => m.ts === card.ts || m.thread_ts === card.ts)
    expect(messages.length).toBeGreaterThan(1)
    for (const m of messages) expect(tablesIn(m).length).toBeLessThanOrEqual(1)
    expect(messages.filter((m) => tablesIn(m).length === 1).length).toBeGreaterThan(1)
    const all = messages.map((m) => visibleText(m)).join('\n')
    for (let i = 0; i < 16; i++) expect(all).toContain(`item ${i}.11`)
  })

  it('sends requested changes back as custom feedback', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [planReview()] })
    const card = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    await alice.click(card, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'Use the existing LRU package instead.')
    await alice.submit()

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: [], custom: 'Use the existing LRU package instead.' }] })
    const final = visibleText(await settledMessage(slack, channel, card.ts))
    expect(final).toMatch(/Changes requested by/)
    expect(final).toContain('Use the existing LRU package instead.')
  })

  it('posts a plan too long for one message as a card plus its thread, and nothing is lost', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const sections = Array.from({ length: 60 }, (_, i) => `## Step ${i + 1}\n\n${'Refactor the module carefully and keep tests green. '.repeat(8)}word${i}marker\n\n\`\`\`ts\nconst step${i} = ${i}\n\`\`\`\n`)
    const plan = `# A long plan\n\n${sections.join('\n')}`

    void bridge.provider.ask({ questions: [planReview(plan)] }).catch(() => undefined)
    const card = await postedMessage(slack, channel)
    await slack.waitFor(() => (JSON.stringify(slack.messages(channel)).includes('word59marker') ? true : undefined), { timeoutMs: 15_000 })

    const all = slack.messages(channel).map((m) => visibleText(m)).join('\n')
    for (let i = 0; i < 60; i++) {
      expect(all).toContain(`word${i}marker`)
      expect(all).toContain(`const step${i} = ${i}`)
    }
    expect(slack.messages(channel).filter((m) => m.thread_ts === card.ts && m.ts !== card.ts).length).toBeGreaterThan(0)
    expect(interactiveElements(card)).toContain('button')
  })
})
