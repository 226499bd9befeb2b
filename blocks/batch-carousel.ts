/**
 * A short batch as a `carousel` (decision 0077): one `card` per question,
 * its options as the card's buttons, so a phone swipes through the
 * questions and answers each with one tap. Only where every question fits a
 * card whole; otherwise the batch keeps today's listing and form. Card text
 * is escaped mrkdwn (the typings take mrkdwn only): agent text can neither
 * mention anyone nor hide a link's target.
 */
import type { CardBlock, CarouselBlock } from '@slack/types'
import { optionButton } from './controls.js'
import { LIMIT } from './limits.js'
import { escapeMrkdwn, shownText } from './text.js'
import type { AskView, Locale, QuestionView } from './view.js'

/** A question's card texts, escaped, or null when one does not fit its field. */
interface CardText {
  title: string
  subtitle?: string
  body?: string
}

/** Every label shows whole on a button (as shown: invisible characters by code point), and none is blank. */
function labelsFit(question: QuestionView): boolean {
  return question.options.every((o) => shownText(o.label).length <= LIMIT.buttonText && o.label.trim() !== '')
}

/**
 * The card's texts: the numbered question as its title, the header as its
 * subtitle, the detail and the options' descriptions as its body. A detail
 * that is more than one line (a list, code, a table) needs the listing's
 * Markdown rendering, so it does not fit a card.
 */
function cardText(question: QuestionView, index: number): CardText | null {
  const title = escapeMrkdwn(shownText(`${index + 1}. ${question.question.trim()}`))
  if (question.question.trim() === '' || title.length > LIMIT.cardTitle) return null
  const text: CardText = { title }
  if (question.header !== undefined && question.header.trim() !== '') {
    const subtitle = escapeMrkdwn(shownText(question.header.trim()))
    if (subtitle.length > LIMIT.cardSubtitle) return null
    text.subtitle = subtitle
  }
  const lines: string[] = []
  const detail = question.detail?.trim() ?? ''
  if (detail !== '') {
    if (/[\r\n]/.test(detail)) return null
    lines.push(detail)
  }
  for (const o of question.options) if (o.description !== undefined && o.description.trim() !== '') lines.push(`${o.label} — ${o.description.trim()}`)
  if (lines.length > 0) {
    const body = escapeMrkdwn(shownText(lines.join('\n')))
    if (body.length > LIMIT.cardBody) return null
    text.body = body
  }
  return text
}

/**
 * Whether a batch shows as a carousel: 2 to LIMIT.carouselCards questions,
 * each single-select with 1 to LIMIT.cardActions options whose labels fit a
 * button, and texts that fit the card's title, subtitle and body.
 */
export function carouselFits(questions: readonly QuestionView[]): boolean {
  if (questions.length < 2 || questions.length > LIMIT.carouselCards) return false
  return questions.every((q, i) => !q.multiSelect && q.options.length >= 1 && q.options.length <= LIMIT.cardActions && labelsFit(q) && cardText(q, i) !== null)
}

function card(locale: Locale, askId: string, question: QuestionView, index: number): CardBlock {
  const text = cardText(question, index)!
  const block: CardBlock = { type: 'card', title: { type: 'mrkdwn', text: text.title, verbatim: true } }
  if (text.subtitle !== undefined) block.subtitle = { type: 'mrkdwn', text: text.subtitle, verbatim: true }
  if (text.body !== undefined) block.body = { type: 'mrkdwn', text: text.body, verbatim: true }
  // The option action ids of a single question, with this question's index: the handler keeps the choice as a draft.
  block.actions = question.options.map((o, i) => optionButton(locale, askId, index, o, i))
  return block
}

/** The batch's carousel, or null when it does not fit (see carouselFits). */
export function batchCarousel(view: AskView): CarouselBlock | null {
  if (!carouselFits(view.questions)) return null
  return { type: 'carousel', elements: view.questions.map((q, i) => card(view.locale, view.askId, q, i)) }
}
