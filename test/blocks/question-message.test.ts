import { describe, expect, it } from 'vitest'
import { checkMessagePayload } from '../../blocks/check.js'
import { encodeActionId, encodeInputBlockId } from '../../blocks/ids.js'
import { LIMIT, questionMessage } from '../../blocks/index.js'
import { actionIds, ask, elementsOfType, mrkdwnTexts, options, planReview, question, richText } from './fixtures.js'

function controlTypes(view: ReturnType<typeof ask>): string[] {
  const { message } = questionMessage(view)
  return message.blocks.filter((b) => b.type === 'actions').flatMap((b) => (b as { elements: { type: string }[] }).elements.map((e) => e.type))
}

describe('questionMessage: a single single-select question', () => {
  it('offers one button per option, valued by index, then Other…, Skip and Dismiss', () => {
    const { message } = questionMessage(ask())

    const buttons = elementsOfType(message, 'button')
    expect(buttons.map((b) => (b.text as { text: string }).text)).toEqual(['Option 0', 'Option 1', 'Option 2', 'Other…', 'Skip', 'Dismiss'])
    expect(buttons.slice(0, 3).map((b) => b.value)).toEqual(['0', '1', '2'])
    expect(actionIds(message)).toEqual([
      encodeActionId({ kind: 'option', askId: 'ask1', question: 0, option: 0 }),
      encodeActionId({ kind: 'option', askId: 'ask1', question: 0, option: 1 }),
      encodeActionId({ kind: 'option', askId: 'ask1', question: 0, option: 2 }),
      encodeActionId({ kind: 'other', askId: 'ask1', question: 0 }),
      encodeActionId({ kind: 'skip', askId: 'ask1' }),
      encodeActionId({ kind: 'dismiss', askId: 'ask1' }),
    ])
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('uses buttons up to LIMIT.cardButtons options and a menu beyond', () => {
    expect(controlTypes(ask({ questions: [question({ options: options(LIMIT.cardButtons) })] })).filter((t) => t === 'button')).toHaveLength(LIMIT.cardButtons + 3)
    expect(controlTypes(ask({ questions: [question({ options: options(LIMIT.cardButtons + 1) })] }))).toEqual(['static_select', 'button', 'button', 'button'])
  })

  it('keeps buttons for a label of exactly LIMIT.buttonText characters and switches to a menu one character later', () => {
    const fits = 'x'.repeat(LIMIT.buttonText)
    const long = 'y'.repeat(LIMIT.buttonText + 1)

    expect(controlTypes(ask({ questions: [question({ options: [{ label: fits }, { label: 'b' }] })] }))[0]).toBe('button')
    expect(controlTypes(ask({ questions: [question({ options: [{ label: long }, { label: 'b' }] })] }))[0]).toBe('static_select')
  })

  it('lists a label too long for its control in full above the controls', () => {
    const long = `${'y'.repeat(LIMIT.optionText)} and the end`

    const { message } = questionMessage(ask({ questions: [question({ options: [{ label: long }, { label: 'b' }] })] }))

    expect(richText(message)).toContain(long)
    const shown = elementsOfType(message, 'static_select')[0]!.options as { text: { text: string } }[]
    expect(shown[0]!.text.text).toHaveLength(LIMIT.optionText)
    expect(shown[0]!.text.text.endsWith('…')).toBe(true)
  })

  it('offers a static select of LIMIT.selectOptions options and an options-load menu at one more', () => {
    const atLimit = questionMessage(ask({ questions: [question({ options: options(LIMIT.selectOptions) })] })).message
    const beyond = questionMessage(ask({ questions: [question({ options: options(LIMIT.selectOptions + 1) })] })).message

    expect((elementsOfType(atLimit, 'static_select')[0]!.options as unknown[]).length).toBe(LIMIT.selectOptions)
    expect(elementsOfType(beyond, 'static_select')).toEqual([])
    expect(elementsOfType(beyond, 'external_select')[0]).toMatchObject({
      action_id: encodeActionId({ kind: 'external-select', askId: 'ask1', question: 0 }),
      min_query_length: 0,
    })
    expect(checkMessagePayload(atLimit)).toEqual([])
    expect(checkMessagePayload(beyond)).toEqual([])
  })

  it('gives a question without options a Reply… button that opens the text modal', () => {
    const { message } = questionMessage(ask({ questions: [question({ options: [] })] }))

    const reply = elementsOfType(message, 'button')[0]!
    expect(reply).toMatchObject({ action_id: encodeActionId({ kind: 'other', askId: 'ask1', question: 0 }), style: 'primary', text: { text: 'Reply…' } })
  })
})

describe('questionMessage: a multi-select question', () => {
  it('shows short options once, in the checkboxes with their descriptions, and no list above', () => {
    const q = question({ multiSelect: true, options: [{ label: 'lint' }, { label: 'typecheck', description: 'tsc --noEmit' }] })

    const { message } = questionMessage(ask({ questions: [q] }))

    expect(richText(message)).not.toContain('typecheck')
    expect(elementsOfType(message, 'checkboxes')[0]).toMatchObject({ options: [{ text: { text: 'lint' } }, { text: { text: 'typecheck' }, description: { text: 'tsc --noEmit' } }] })
  })

  it('lists options whose descriptions checkboxes would cut, and then leaves the descriptions out of the checkboxes', () => {
    const long = 'd'.repeat(LIMIT.optionDescription + 1)
    const q = question({ multiSelect: true, options: [{ label: 'lint', description: long }, { label: 'unit tests' }] })

    const { message } = questionMessage(ask({ questions: [q] }))

    expect(richText(message)).toContain(long)
    expect(JSON.stringify(elementsOfType(message, 'checkboxes'))).not.toContain('"description"')
  })

  const multi = (n: number) => ask({ questions: [question({ multiSelect: true, options: options(n) })] })

  it('uses checkboxes up to LIMIT.checkboxOptions, in a block the provider reads at Submit', () => {
    const { message } = questionMessage(multi(LIMIT.checkboxOptions))

    const block = message.blocks.find((b) => b.block_id === encodeInputBlockId({ kind: 'choice', question: 0 }))
    expect(block).toMatchObject({ type: 'actions', elements: [{ type: 'checkboxes', action_id: encodeActionId({ kind: 'checkboxes', askId: 'ask1', question: 0 }) }] })
    expect(elementsOfType(message, 'button')[0]).toMatchObject({ action_id: encodeActionId({ kind: 'submit', askId: 'ask1', question: 0 }), style: 'primary', text: { text: 'Submit' } })
  })

  it('uses a multi select at one more than LIMIT.checkboxOptions and up to LIMIT.selectOptions', () => {
    expect(controlTypes(multi(LIMIT.checkboxOptions + 1))[0]).toBe('multi_static_select')
    expect(controlTypes(multi(LIMIT.selectOptions))[0]).toBe('multi_static_select')
  })

  it('uses a multi options-load menu beyond LIMIT.selectOptions', () => {
    const { message } = questionMessage(multi(LIMIT.selectOptions + 1))

    expect(controlTypes(multi(LIMIT.selectOptions + 1))[0]).toBe('multi_external_select')
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('shows option descriptions on checkboxes', () => {
    const view = ask({ questions: [question({ multiSelect: true, options: [{ label: 'a', description: 'the first' }] })] })

    const checkbox = elementsOfType(questionMessage(view).message, 'checkboxes')[0]!

    expect(checkbox.options).toEqual([{ text: { type: 'plain_text', text: 'a', emoji: false }, value: '0', description: { type: 'plain_text', text: 'the first', emoji: false } }])
  })
})

describe('questionMessage: the card around the controls', () => {
  it('names an agent without a title by its session, never with a bare "Agent" label', () => {
    const context = mrkdwnTexts(questionMessage(ask({ agent: { id: 'sess-1', cwd: '/repo' } })).message)[0]

    expect(context).toBe('*Agent* `sess-1` · `/repo`')
  })

  it('says "An agent" when nothing is known about who asks', () => {
    expect(mrkdwnTexts(questionMessage(ask()).message)[0]).toBe('*An agent*')
  })

  it('starts with a context line naming the mention, agent, session, cwd and expiry', () => {
    const view = ask({ mention: 'U0ABC', expiresAt: Date.UTC(2026, 6, 1, 12, 30), agent: { id: 'sess-1', title: 'Refactor bot', cwd: '/repo' } })

    const context = questionMessage(view).message.blocks[0]

    expect(context).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: '<@U0ABC> · *Agent*' },
        { type: 'plain_text', text: 'Refactor bot', emoji: false },
        { type: 'mrkdwn', text: '· session `sess-1` · `/repo` · expires <!date^1782909000^{date_short_pretty} at {time}|2026-07-01 12:30 UTC>' },
      ],
    })
  })

  it('shows the agent title literally: Slack formatting in it is not applied', () => {
    const view = ask({ agent: { id: 'sess-1', title: '*t* _i_ ~s~ `c`' } })

    const context = questionMessage(view).message.blocks[0] as { elements: { type: string; text: string }[] }

    expect(context.elements.filter((e) => e.type === 'plain_text').map((e) => e.text)).toEqual(['*t* _i_ ~s~ `c`'])
    expect(mrkdwnTexts(context).join(' ')).not.toContain('*t*')
  })

  it('notifies a user group in the top-level text and escapes the agent text there', () => {
    const view = ask({ mention: 'S0GRP', agent: { id: 's', title: '<!channel> bot' }, questions: [question({ question: 'Deploy <@U1> & co?' })] })

    expect(questionMessage(view).message.text).toBe('<!subteam^S0GRP> &lt;!channel&gt; bot asks: Deploy &lt;@U1&gt; &amp; co?')
  })

  it('ignores a mention that is not a Slack user or group id', () => {
    const view = ask({ mention: 'here' })

    expect(questionMessage(view).message.text).toBe('An agent asks: Which package manager?')
  })

  it('shows the header in a header block, shortened to LIMIT.headerText', () => {
    const header = 'h'.repeat(LIMIT.headerText + 10)

    const block = questionMessage(ask({ questions: [question({ header })] })).message.blocks[1]!

    expect(block).toEqual({ type: 'header', text: { type: 'plain_text', text: `${'h'.repeat(LIMIT.headerText - 1)}…`, emoji: false } })
  })

  it('shortens a very long question on the card and puts it whole in the thread', () => {
    const long = `${'word '.repeat(LIMIT.cardQuestionText)}END`

    const { message, thread } = questionMessage(ask({ questions: [question({ question: long })] }))

    expect(richText(message.blocks[1])).toHaveLength(LIMIT.cardQuestionText)
    expect(richText(message.blocks[1]).endsWith('…')).toBe(true)
    expect(richText([...message.blocks.slice(2), ...thread]).replace(/\n/g, '')).toContain(long)
  })

  it('renders the detail as rich text', () => {
    const { message } = questionMessage(ask({ questions: [question({ detail: 'Use **pnpm** or `npm`.' })] }))

    expect(elementsOfType(message, 'rich_text_section').some((s) => JSON.stringify(s).includes('"bold":true') && JSON.stringify(s).includes('pnpm'))).toBe(true)
  })
})

describe('questionMessage: several questions', () => {
  // Four options: more than a carousel card holds, so the batch is listed (decision 0077).
  const batch = (n: number) => ask({ questions: Array.from({ length: n }, (_, i) => question({ id: `q${i}`, question: `Question ${i}?`, header: `H${i}`, detail: `Detail ${i}`, options: options(LIMIT.cardActions + 1) })) })

  it('lists every question of a batch too big for cards, numbered, with its header, detail and options, and an Answer… button', () => {
    const { message, thread } = questionMessage(batch(3))

    const text = richText(message)
    expect(text).toContain('1. H0 · Question 0?')
    expect(text).toContain('3. H2 · Question 2?')
    expect(text).toContain('Detail 1')
    expect(text).toContain('Option 1')
    expect(actionIds(message)).toEqual([encodeActionId({ kind: 'answer', askId: 'ask1' }), encodeActionId({ kind: 'dismiss', askId: 'ask1' })])
    expect(thread).toEqual([])
  })

  it('summarises a batch too big for one message and says how many questions follow', () => {
    const { message, thread } = questionMessage(batch(200))

    const shown = richText(message).match(/\d+\. H\d+ · /g)!.length
    expect(mrkdwnTexts(message).some((t) => t.startsWith(`…and ${200 - shown} more questions`))).toBe(true)
    expect(message.blocks.length).toBeLessThanOrEqual(LIMIT.messageBlocks)
    expect(richText(thread)).toContain('200. H199 · Question 199?')
    expect(checkMessagePayload(message)).toEqual([])
  })
})

describe('questionMessage: plan review', () => {
  it('makes a plan card: the plan, Approve (primary), Keep planning, Request changes… and Dismiss', () => {
    const { message } = questionMessage(planReview('# The plan\n\n1. Do it'))

    expect(message.blocks[1]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Plan review', emoji: false } })
    expect(richText(message)).toContain('The plan')
    const buttons = elementsOfType(message, 'button')
    expect(buttons.map((b) => [(b.text as { text: string }).text, b.style ?? null, b.value ?? null])).toEqual([
      ['Approve', 'primary', '0'],
      ['Keep planning', null, '1'],
      ['Request changes…', null, null],
      ['Dismiss', null, null],
    ])
    expect(message.text).toBe('An agent asks for a plan review: The plan')
  })

  it('finds Approve by its label, not its position', () => {
    const view = planReview('# P', { options: [{ label: 'Keep planning' }, { label: 'Approve' }] })

    const approve = elementsOfType(questionMessage(view).message, 'button')[0]!

    expect(approve).toMatchObject({ value: '1', style: 'primary', text: { text: 'Approve' } })
  })

  it('renders an unknown intent kind as the generic question', () => {
    const view = planReview('# P', { intent: { kind: 'ship-it', approve: 'Approve' } })

    const texts = elementsOfType(questionMessage(view).message, 'button').map((b) => (b.text as { text: string }).text)

    expect(texts).toEqual(['Approve', 'Keep planning', 'Other…', 'Skip', 'Dismiss'])
  })

  it('continues a long plan in the thread, says so on the card and attaches it as a file when very long', () => {
    const plan = `# Big\n\n${Array.from({ length: 600 }, (_, i) => `Paragraph ${i} ${'lorem ipsum '.repeat(20)}`).join('\n\n')}`

    const { message, thread, file } = questionMessage(planReview(plan))

    expect(thread.length).toBeGreaterThan(LIMIT.fileAfterThreadParts)
    expect(mrkdwnTexts(message)).toContain(`Continued in the thread (${thread.length} parts).`)
    expect(mrkdwnTexts(thread[0])[0]).toBe(`Part 1 of ${thread.length}`)
    expect(file).toEqual({ filename: 'plan.md', title: 'Plan review', content: plan })
    for (const part of [message, ...thread]) expect(checkMessagePayload(part)).toEqual([])
  })
})
