/**
 * A settled card: the same context, header, question and body excerpt as the
 * open card (so the channel's history reads), with the controls replaced by a
 * status: who answered what and when, or why it closed.
 */
import type { KnownBlock, RichTextBlock } from '@slack/types'
import { dateMrkdwn, personMrkdwn } from './context.js'
import { wordsFor, type AskSubject, type Words } from './i18n.js'
import { contextLine, layoutCard, textSize, type MessagePayload } from './layout.js'
import { LIMIT } from './limits.js'
import { approveIndex, askCard, askShape, type AskBody } from './question-message.js'
import { fitEscaped, fitMrkdwn, fitText, shownText } from './text.js'
import type { AnswerView, AskView, Locale, Outcome, Person, QuestionView } from './view.js'

/** The status line (mrkdwn) of an outcome, for asks and approvals alike. */
export function statusLine(locale: Locale, outcome: Outcome, plan?: { approved: boolean; feedback: boolean }, subject: AskSubject = 'question'): string {
  const words = wordsFor(locale)
  const when = dateMrkdwn(locale, outcome.at)
  switch (outcome.kind) {
    case 'answered': {
      const who = approversMrkdwn(outcome.by, outcome.approvedBy)
      if (outcome.delivering) return words.delivering(plan?.feedback ? 'changes' : plan?.approved ? 'approval' : 'answer', who, when)
      if (plan?.feedback) return words.changesRequestedBy(who, when)
      if (plan?.approved) return words.approvedBy(who, when)
      return words.answeredBy(who, when)
    }
    case 'dismissed':
      if (outcome.delivering) return words.delivering('dismissal', personMrkdwn(outcome.by), when)
      return words.dismissedBy(personMrkdwn(outcome.by), when)
    case 'aborted':
      return words.aborted(when, subject)
    case 'expired':
      return words.expired(when, subject)
    case 'stopped':
      return words.stopped(when)
    case 'settled-elsewhere':
      return words.settledElsewhere(outcome.how, when, outcome.by === undefined ? undefined : personMrkdwn(outcome.by))
    case 'decided':
      if (outcome.delivering) return words.delivering(outcome.decision === 'allowed-once' ? 'allowed' : 'rejected', outcome.decision === 'allowed-once' ? approversMrkdwn(outcome.by, outcome.approvedBy) : personMrkdwn(outcome.by), when)
      return outcome.decision === 'allowed-once' ? words.allowedBy(approversMrkdwn(outcome.by, outcome.approvedBy), when) : words.rejectedBy(personMrkdwn(outcome.by), when)
    case 'failed':
      return `${words.failed(when)}${outcome.reason.trim() === '' ? '' : ` — ${fitMrkdwn(outcome.reason, LIMIT.contextField)}`}`
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}

/** Who approved: every approver of a quorum, else the one person who acted. */
export function approversMrkdwn(by: Person, approvedBy: Person[] | undefined): string {
  return approvedBy !== undefined && approvedBy.length > 0 ? approvedBy.map(personMrkdwn).join(', ') : personMrkdwn(by)
}

function answerFor(answers: AnswerView[], question: QuestionView, index: number): AnswerView | undefined {
  const same = answers[index]
  return same?.id === question.id ? same : answers.find((a) => a.id === question.id)
}

/** An answer as a reader says it: the labels, the custom text in quotes, or "skipped". */
function answerText(words: Words, answer: AnswerView | undefined, max: number): { text: string; italic: boolean } {
  if (answer?.custom !== undefined) return { text: fitText(shownText(`“${answer.custom}”`), max), italic: false }
  if (answer === undefined || answer.selected.length === 0) return { text: words.skipped, italic: true }
  return { text: fitText(shownText(answer.selected.join(', ')), max), italic: false }
}

/** What was answered, as rich text within LIMIT.statusText (literal: answers are never parsed). */
function answersBlock(view: AskView, answers: AnswerView[], budget: number): RichTextBlock | undefined {
  const words = wordsFor(view.locale)
  if (view.questions.length === 1) {
    const answer = answerText(words, answerFor(answers, view.questions[0]!, 0), budget)
    return { type: 'rich_text', elements: [{ type: 'rich_text_quote', elements: [{ type: 'text', text: answer.text, ...(answer.italic ? { style: { italic: true } } : {}) }] }] }
  }
  const items: RichTextBlock['elements'] = []
  const sections: { type: 'rich_text_section'; elements: { type: 'text'; text: string; style?: { italic?: boolean; bold?: boolean } }[] }[] = []
  let used = 0
  let shown = 0
  // Each answer gets a fair share, so the first long answer cannot crowd out the rest.
  const share = Math.max(LIMIT.optionText, Math.floor(budget / Math.max(1, view.questions.length)))
  for (const [i, q] of view.questions.entries()) {
    const label = fitText(shownText(q.header?.trim() || q.question.trim() || '–'), LIMIT.optionText)
    const answer = answerText(words, answerFor(answers, q, i), share)
    const size = label.length + answer.text.length + 2
    if (used + size > budget - LIMIT.optionText) break
    sections.push({ type: 'rich_text_section', elements: [{ type: 'text', text: `${label}: `, style: { bold: true } }, { type: 'text', text: answer.text, ...(answer.italic ? { style: { italic: true } } : {}) }] })
    used += size
    shown++
  }
  if (sections.length > 0) items.push({ type: 'rich_text_list', style: 'ordered', indent: 0, elements: sections })
  if (shown < view.questions.length) items.push({ type: 'rich_text_section', elements: [{ type: 'text', text: words.moreAnswers(view.questions.length - shown), style: { italic: true } }] })
  return items.length === 0 ? undefined : { type: 'rich_text', elements: items }
}

/** The status blocks of an ask's outcome: at most STATUS_BLOCKS, within LIMIT.statusText. */
export function askStatus(view: AskView, outcome: Outcome): KnownBlock[] {
  let plan: { approved: boolean; feedback: boolean } | undefined
  if (outcome.kind === 'answered' && askShape(view) === 'plan-review') {
    const q = view.questions[0]!
    const a = answerFor(outcome.answers, q, 0)
    plan = { feedback: a?.custom !== undefined, approved: a?.custom === undefined && a?.selected.length === 1 && a.selected[0] === q.options[approveIndex(q)]?.label }
  }
  const line = contextLine(statusLine(view.locale, outcome, plan))
  if (outcome.kind !== 'answered' || plan?.approved) return [line]
  const answers = answersBlock(view, outcome.answers, LIMIT.statusText - textSize(line))
  return answers === undefined ? [line] : [line, answers]
}

/**
 * The card once settled: same head and body excerpt as when it was posted
 * (the thread parts were posted then and stay), the controls replaced by the
 * status. `body` is askBody(view) when the caller kept it from the open card.
 */
export function settledMessage(view: AskView, outcome: Outcome, body?: AskBody): MessagePayload {
  // The status line says who settled it and when; an expiry in the context
  // line ("expires tomorrow") would read as if the question were still open.
  const parts = askCard({ ...view, expiresAt: undefined }, body, { settled: true })
  const tail = askStatus(view, outcome)
  const rendered = layoutCard({ ...parts, tail })
  const status = (tail[0] as { elements: { text: string }[] }).elements[0]!.text
  return { text: fitEscaped(status, LIMIT.notificationText), blocks: rendered.message.blocks }
}
