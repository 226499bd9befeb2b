import { describe, expect, it } from 'vitest'
import { batchCarousel, carouselFits } from '../../blocks/batch-carousel.js'
import { checkMessagePayload } from '../../blocks/check.js'
import { LIMIT } from '../../blocks/limits.js'
import { batchModal, questionMessage, settledMessage } from '../../blocks/index.js'
import { decodeActionId } from '../../blocks/ids.js'
import type { QuestionView } from '../../blocks/view.js'
import { ask, NOW, options, question } from './fixtures.js'

/** `n` short single-select questions of `k` options each. */
function batch(n: number, k = 2, overrides: (i: number) => Partial<QuestionView> = () => ({})): QuestionView[] {
  return Array.from({ length: n }, (_, i) => question({ id: `q${i}`, question: `Question ${i}?`, options: options(k), ...overrides(i) }))
}

describe('carouselFits', () => {
  it('takes 2 to 10 questions and refuses 1 and 11', () => {
    expect(carouselFits(batch(2))).toBe(true)
    expect(carouselFits(batch(LIMIT.carouselCards))).toBe(true)
    expect(carouselFits(batch(1))).toBe(false)
    expect(carouselFits(batch(LIMIT.carouselCards + 1))).toBe(false)
  })

  it('takes 1 to 3 options a question and refuses 0 and 4', () => {
    expect(carouselFits(batch(2, 1))).toBe(true)
    expect(carouselFits(batch(2, LIMIT.cardActions))).toBe(true)
    expect(carouselFits(batch(2, 0))).toBe(false)
    expect(carouselFits(batch(2, LIMIT.cardActions + 1))).toBe(false)
  })

  it('refuses a multi-select question, a label longer than a button, and a blank label', () => {
    expect(carouselFits(batch(2, 2, (i) => ({ multiSelect: i === 1 })))).toBe(false)
    expect(carouselFits(batch(2, 2, () => ({ options: [{ label: 'x'.repeat(LIMIT.buttonText) }] })))).toBe(true)
    expect(carouselFits(batch(2, 2, () => ({ options: [{ label: 'x'.repeat(LIMIT.buttonText + 1) }] })))).toBe(false)
    expect(carouselFits(batch(2, 2, () => ({ options: [{ label: ' ' }] })))).toBe(false)
  })

  it('measures a label as shown: one with an invisible character shown by code point no longer fits a button (decision 0092)', () => {
    const shown = 'x'.repeat(LIMIT.buttonText - 1)

    expect(carouselFits(batch(2, 2, () => ({ options: [{ label: `${shown}y` }] })))).toBe(true)
    expect(carouselFits(batch(2, 2, () => ({ options: [{ label: `${shown}\u202e` }] })))).toBe(false)
  })

  it('measures the title as sent: the number and the escaped question within 150 characters', () => {
    // "1. " + 147 characters is 150; an `&` escaped as `&amp;` takes five.
    expect(carouselFits(batch(2, 2, () => ({ question: 'q'.repeat(147) })))).toBe(true)
    expect(carouselFits(batch(2, 2, () => ({ question: 'q'.repeat(148) })))).toBe(false)
    expect(carouselFits(batch(2, 2, () => ({ question: `${'q'.repeat(142)}&` })))).toBe(true)
    expect(carouselFits(batch(2, 2, () => ({ question: `${'q'.repeat(143)}&` })))).toBe(false)
  })

  it('takes a header of 150 characters and a one-line body of 200, and refuses one more, or a detail of several lines', () => {
    expect(carouselFits(batch(2, 2, () => ({ header: 'h'.repeat(LIMIT.cardSubtitle) })))).toBe(true)
    expect(carouselFits(batch(2, 2, () => ({ header: 'h'.repeat(LIMIT.cardSubtitle + 1) })))).toBe(false)
    expect(carouselFits(batch(2, 2, () => ({ detail: 'd'.repeat(LIMIT.cardBody) })))).toBe(true)
    expect(carouselFits(batch(2, 2, () => ({ detail: 'd'.repeat(LIMIT.cardBody + 1) })))).toBe(false)
    expect(carouselFits(batch(2, 2, () => ({ detail: 'first line\n- a list' })))).toBe(false)
  })

  it('counts option descriptions in the body', () => {
    const described = (n: number) => batch(2, 2, () => ({ options: [{ label: 'a', description: 'd'.repeat(n) }] }))
    // "a — " is four characters.
    expect(carouselFits(described(LIMIT.cardBody - 4))).toBe(true)
    expect(carouselFits(described(LIMIT.cardBody - 3))).toBe(false)
  })
})

describe('batchCarousel', () => {
  it('gives each question a card: numbered title, header as subtitle, detail and descriptions as body, options as buttons of that question', () => {
    const view = ask({ questions: [question({ id: 'a', header: 'Tooling', question: 'Which package manager?', detail: 'Pick one.', options: [{ label: 'pnpm', description: 'fast' }, { label: 'npm' }] }), question({ id: 'b', question: 'Node?', options: options(1) })] })

    const carousel = batchCarousel(view)!

    expect(carousel.elements[0]).toMatchObject({
      type: 'card',
      title: { type: 'mrkdwn', text: '1. Which package manager?' },
      subtitle: { type: 'mrkdwn', text: 'Tooling' },
      body: { type: 'mrkdwn', text: 'Pick one.\npnpm — fast' },
    })
    expect(carousel.elements[1]!.actions!.map((b) => decodeActionId(b.action_id!))).toEqual([{ kind: 'option', askId: 'ask1', question: 1, option: 0 }])
    expect(carousel.elements[1]!.body).toBeUndefined()
  })

  it('escapes agent text, so a card can neither ping the channel nor hide a link', () => {
    const view = ask({ questions: batch(2, 2, (i) => ({ question: i === 0 ? '<!channel> go?' : 'ok?', detail: '<https://evil|bank.com>' })) })

    const text = JSON.stringify(batchCarousel(view))

    expect(text).toContain('&lt;!channel&gt; go?')
    expect(text).toContain('&lt;https://evil|bank.com&gt;')
    expect(text).not.toContain('<!channel>')
  })

  it('puts the carousel between the intro and Answer…, lists nothing besides, and passes the checker', () => {
    const view = ask({ questions: batch(LIMIT.carouselCards, LIMIT.cardActions) })

    const { message } = questionMessage(view)

    expect(message.blocks.map((b) => b.type)).toEqual(['context', 'section', 'carousel', 'actions'])
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('keeps today’s listing when the batch does not fit', () => {
    const { message } = questionMessage(ask({ questions: batch(2, 4) }))

    expect(message.blocks.some((b) => b.type === 'carousel')).toBe(false)
    expect(JSON.stringify(message.blocks)).toContain('Question 1?')
  })

  it('settles without the cards: the status lists what was chosen for each question', () => {
    const view = ask({ questions: batch(2) })

    const settled = settledMessage(view, { kind: 'answered', by: { id: 'U1' }, at: NOW, answers: [{ id: 'q0', selected: ['Option 1'] }, { id: 'q1', selected: [] }] })

    expect(settled.blocks.some((b) => b.type === 'carousel')).toBe(false)
    const text = JSON.stringify(settled.blocks)
    expect(text).toContain('Question 0?: ')
    expect(text).toContain('Option 1')
    expect(text).toContain('skipped')
    expect(checkMessagePayload(settled)).toEqual([])
  })
})

describe('the batch form with card choices', () => {
  it('shows each chosen option chosen, and nothing for a question without a choice', () => {
    const view = ask({ questions: batch(3) })

    const { view: form } = batchModal(view, 0, { chosen: new Map([[0, 1], [2, 0]]) })

    const inputs = form.blocks.filter((b) => b.type === 'input') as { element: { type: string; initial_option?: { value: string } } }[]
    const radios = inputs.map((b) => b.element).filter((e) => e.type === 'radio_buttons')
    expect(radios.map((r) => r.initial_option?.value)).toEqual(['1', undefined, '0'])
  })

  it('splits into the same pages with and without choices', () => {
    const view = ask({ questions: batch(25, 3, () => ({ detail: 'x'.repeat(900) })) })

    expect(batchModal(view, 1, { chosen: new Map(Array.from({ length: 25 }, (_, i) => [i, 2])) }).questions).toEqual(batchModal(view, 1).questions)
  })
})
