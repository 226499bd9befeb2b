import { describe, expect, it } from 'vitest'
import { checkViewPayload } from '../../blocks/check.js'
import { encodeActionId, encodeCallbackId, encodeInputBlockId } from '../../blocks/ids.js'
import { batchModal, feedbackModal, LIMIT, otherModal, otherTextError } from '../../blocks/index.js'
import { ask, elementsOfType, options, planReview, question, richText } from './fixtures.js'

const batch = (n: number, extra: Partial<ReturnType<typeof question>> = {}) =>
  ask({ questions: Array.from({ length: n }, (_, i) => question({ id: `q${i}`, question: `Question ${i}?`, ...extra })) })

describe('otherModal', () => {
  it('shows the question above one required multiline text box', () => {
    const view = otherModal(ask(), 0)

    expect(view).toMatchObject({
      type: 'modal',
      callback_id: encodeCallbackId({ kind: 'other-modal', askId: 'ask1', question: 0 }),
      title: { text: 'Your answer' },
      submit: { text: 'Send' },
      close: { text: 'Cancel' },
    })
    expect(richText(view.blocks[0])).toBe('Which package manager?')
    expect(view.blocks[1]).toMatchObject({
      type: 'input',
      block_id: encodeInputBlockId({ kind: 'text' }),
      optional: false,
      element: { type: 'plain_text_input', multiline: true, max_length: LIMIT.plainTextInputMax, action_id: encodeActionId({ kind: 'other', askId: 'ask1', question: 0 }) },
    })
    expect(checkViewPayload(view)).toEqual([])
  })

  it('carries the options ticked on a multi-select into the box, with a note that typed text replaces the ticks', () => {
    const view = otherModal(ask({ questions: [question({ multiSelect: true })] }), 0, { ticked: ['npm', 'pnpm <!here>'] })

    const input = view.blocks.find((block) => block.type === 'input')
    expect(input).toMatchObject({ element: { type: 'plain_text_input', initial_value: 'npm, pnpm <!here>' } })
    expect(JSON.stringify(view.blocks)).toContain('a typed answer replaces the ticks')
    expect(checkViewPayload(view)).toEqual([])
  })

  it('prefills nothing and adds no note when nothing was ticked', () => {
    const view = otherModal(ask({ questions: [question({ multiSelect: true })] }), 0, { ticked: [] })

    expect(view.blocks).toHaveLength(2)
    expect(JSON.stringify(view.blocks)).not.toContain('initial_value')
  })

  it('shortens a prefill longer than the box holds, visibly', () => {
    const long = Array.from({ length: 60 }, (_, i) => `${'option '.repeat(10)}${i}`)

    const view = otherModal(ask({ questions: [question({ multiSelect: true })] }), 0, { ticked: long })

    const prefill = (view.blocks.find((block) => block.type === 'input') as { element: { initial_value: string } }).element.initial_value
    expect(prefill.length).toBeLessThanOrEqual(LIMIT.plainTextInputMax)
    expect(prefill).toMatch(/…$/)
  })

  it('carries private_metadata and refuses one longer than Slack keeps', () => {
    expect(otherModal(ask(), 0, { privateMetadata: 'x' }).private_metadata).toBe('x')
    expect(() => otherModal(ask(), 0, { privateMetadata: 'x'.repeat(LIMIT.privateMetadata + 1) })).toThrow(RangeError)
  })
})

describe('otherTextError', () => {
  it('refuses blank text and accepts trimmed text', () => {
    expect(otherTextError('en', '   \n ')).toBe('Write an answer: it cannot be blank.')
    expect(otherTextError('zh-CN', '')).toBe('请填写回答：不能为空。')
    expect(otherTextError('en', '  yarn ')).toBeNull()
  })

  it('accepts LIMIT.plainTextInputMax characters and refuses one more', () => {
    expect(otherTextError('en', 'x'.repeat(LIMIT.plainTextInputMax))).toBeNull()
    expect(otherTextError('en', 'x'.repeat(LIMIT.plainTextInputMax + 1))).toBe(`Keep it under ${LIMIT.plainTextInputMax} characters.`)
  })
})

describe('feedbackModal', () => {
  it('asks what should change, for the plan review', () => {
    const view = feedbackModal(planReview('# P'))

    expect(view).toMatchObject({ callback_id: encodeCallbackId({ kind: 'feedback-modal', askId: 'ask1' }), title: { text: 'Request changes' } })
    expect(view.blocks[1]).toMatchObject({ type: 'input', label: { text: 'What should change?' }, element: { action_id: encodeActionId({ kind: 'request-changes', askId: 'ask1' }) } })
    expect(checkViewPayload(view)).toEqual([])
  })
})

describe('batchModal', () => {
  it('shows each question’s number and heading once: the inputs are labelled with what to do', () => {
    const view = ask({ questions: [question({ header: 'Tooling' }), question({ id: 'q2', header: 'Checks', multiSelect: true }), question({ id: 'q3', options: [] })] })

    const { view: modal } = batchModal(view, 0)

    const labels = modal.blocks.filter((block) => block.type === 'input').map((block) => (block as { label: { text: string } }).label.text)
    expect(labels).toEqual(['Choose one', 'Or your own answer, instead of a choice above', 'Choose any', 'Or your own answer, instead of a choice above', 'Your answer'])
    expect(JSON.stringify(modal).match(/Tooling/g)).toHaveLength(1)
  })

  it('has one optional choice and one optional Other text per question, and says empty means skipped', () => {
    const { view, page, pageCount, questions } = batchModal(batch(2), 0)

    expect([page, pageCount, questions]).toEqual([0, 1, [0, 1]])
    expect(view.submit).toMatchObject({ text: 'Submit' })
    expect(view.title).toMatchObject({ text: 'Answer' })
    const inputs = view.blocks.filter((b) => b.type === 'input')
    expect(inputs.map((b) => [b.block_id, (b as { optional: boolean }).optional])).toEqual([
      [encodeInputBlockId({ kind: 'choice', question: 0 }), true],
      [encodeInputBlockId({ kind: 'other-text', question: 0 }), true],
      [encodeInputBlockId({ kind: 'choice', question: 1 }), true],
      [encodeInputBlockId({ kind: 'other-text', question: 1 }), true],
    ])
    expect(JSON.stringify(view.blocks[0])).toContain('Leave a question empty to skip it.')
    expect(checkViewPayload(view)).toEqual([])
  })

  it('uses radio buttons up to LIMIT.checkboxOptions, a select beyond, an options-load menu past LIMIT.selectOptions', () => {
    const kinds = (n: number, multiSelect = false) => elementsOfType(batchModal(batch(1, { options: options(n), multiSelect }), 0).view, 'input').map((b) => (b.element as { type: string }).type)[0]

    expect(kinds(LIMIT.checkboxOptions)).toBe('radio_buttons')
    expect(kinds(LIMIT.checkboxOptions + 1)).toBe('static_select')
    expect(kinds(LIMIT.selectOptions)).toBe('static_select')
    expect(kinds(LIMIT.selectOptions + 1)).toBe('external_select')
    expect(kinds(LIMIT.checkboxOptions, true)).toBe('checkboxes')
    expect(kinds(LIMIT.checkboxOptions + 1, true)).toBe('multi_static_select')
    expect(kinds(LIMIT.selectOptions + 1, true)).toBe('multi_external_select')
    expect(kinds(0)).toBe('plain_text_input')
  })

  it('fits LIMIT.formQuestionsPerPage questions on one page and pages at one more, with Next until the last', () => {
    expect(batchModal(batch(LIMIT.formQuestionsPerPage), 0).pageCount).toBe(1)

    const first = batchModal(batch(LIMIT.formQuestionsPerPage + 1), 0)
    const last = batchModal(batch(LIMIT.formQuestionsPerPage + 1), 1)

    expect([first.pageCount, first.view.submit?.text, first.view.title.text]).toEqual([2, 'Next', 'Answer (1/2)'])
    expect([last.questions, last.view.submit?.text, last.view.callback_id]).toEqual([[LIMIT.formQuestionsPerPage], 'Submit', encodeCallbackId({ kind: 'batch-modal', askId: 'ask1', page: 1 })])
  })

  it('puts every question of a huge batch on exactly one page, each page within Slack limits', () => {
    const view = batch(250, { options: options(100), detail: 'x '.repeat(4000) })

    const first = batchModal(view, 0)
    const seen: number[] = []
    for (let p = 0; p < first.pageCount; p++) {
      const page = batchModal(view, p)
      expect(checkViewPayload(page.view)).toEqual([])
      seen.push(...page.questions)
    }

    expect(seen).toEqual(view.questions.map((_, i) => i))
  })

  it('clamps a page number out of range', () => {
    expect(batchModal(batch(3), 7).page).toBe(0)
  })
})
