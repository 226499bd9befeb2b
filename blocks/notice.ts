/**
 * Ephemeral notices to one person: someone else answered first, you may not
 * answer, the question is closed. Mrkdwn text for chat.postEphemeral.
 */
import { personMrkdwn } from './context.js'
import { wordsFor } from './i18n.js'
import type { Locale, Person } from './view.js'

/** What an ephemeral notice says. */
export type Notice =
  /** A later click on a question someone already answered; `by` is absent when unknown. */
  | { kind: 'already-answered'; by?: Person }
  /** The person is not among the allowed users or groups. */
  | { kind: 'not-allowed' }
  /** The question was withdrawn, expired, dismissed or otherwise closed. */
  | { kind: 'closed' }

export type NoticeKind = Notice['kind']

export function noticeText(locale: Locale, notice: Notice): string {
  const words = wordsFor(locale)
  switch (notice.kind) {
    case 'already-answered':
      return notice.by === undefined ? words.alreadySettled : words.alreadyAnsweredBy(personMrkdwn(notice.by))
    case 'not-allowed':
      return words.notAllowed
    case 'closed':
      return words.closed
    default: {
      const unreachable: never = notice
      return unreachable
    }
  }
}
