/**
 * The top-level `text` of a card: what a push notification, a screen reader
 * and the channel list show. Short, escaped, and carrying the configured
 * mention (trusted) so the right phones buzz.
 */
import { agentName, mentionOf } from './context.js'
import { wordsFor } from './i18n.js'
import { LIMIT } from './limits.js'
import { parseMarkdown, plainText } from './markdown/index.js'
import { fitEscaped, fitMrkdwn, shownText } from './text.js'
import type { ApprovalView, AskView } from './view.js'

/** How much of a plan is parsed to find its title: a title is near the top, and a notification must be cheap. */
const TITLE_SCAN = LIMIT.cardQuestionText

/** The plan's first heading, as plain text. */
export function firstHeading(markdown: string | undefined): string | undefined {
  if (markdown === undefined) return undefined
  const root = parseMarkdown(markdown.slice(0, TITLE_SCAN))
  const heading = root.children.find((node) => node.type === 'heading')
  return heading === undefined ? undefined : plainText(heading).trim() || undefined
}

/** The notification text of an ask or a tool approval. */
export function fallbackText(view: AskView | ApprovalView): string {
  const words = wordsFor(view.locale)
  const from = agentName(view.locale, view.agent)
  const mention = mentionOf(view.mention)
  const prefix = mention === undefined ? '' : `${mention} `
  // The agent's words get what is left of the budget after ours.
  const room = LIMIT.notificationText
  let text: string
  if ('toolName' in view) {
    text = words.approvalFrom(from, fitMrkdwn(view.toolName, room / 2))
  } else if (view.questions.length === 1) {
    const q = view.questions[0]!
    const plan = q.intent?.kind === 'plan-review' && q.options.some((o) => o.label === q.intent?.approve)
    text = plan
      ? words.planFrom(from, fitMrkdwn(firstHeading(q.detail) ?? q.header ?? q.question, room / 2))
      : words.questionFrom(from, fitMrkdwn(q.question, room / 2))
  } else {
    text = words.questionsFrom(from, view.questions.length, fitMrkdwn(view.questions[0]?.question ?? '', room / 2))
  }
  return prefix + fitEscaped(shownText(text), room)
}
