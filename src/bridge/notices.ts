import { noticeText, wordsFor } from '../../blocks/index.js'
import type { Locale, Outcome } from '../../blocks/view.js'

/** What a person is told privately when their action changes nothing. */
export type Notice =
  | { kind: 'already-settled'; outcome: Outcome }
  | { kind: 'not-allowed' }
  | { kind: 'closed' }
  /** Submit with nothing ticked. */
  | { kind: 'pick-something' }
  /** Something failed on our side or Slack's; the person may try again. */
  | { kind: 'failed' }

/** The notice's text in the bridge's language (blocks/ owns the words). */
export function noticeFor(locale: Locale, notice: Notice): string {
  switch (notice.kind) {
    case 'already-settled': {
      const outcome = notice.outcome
      if (outcome.kind === 'answered' || outcome.kind === 'dismissed' || outcome.kind === 'decided') return noticeText(locale, { kind: 'already-answered', by: outcome.by })
      return noticeText(locale, { kind: 'closed' })
    }
    case 'not-allowed':
    case 'closed':
      return noticeText(locale, { kind: notice.kind })
    case 'pick-something':
      return wordsFor(locale).multiHint
    case 'failed':
      return wordsFor(locale).tryAgain
    default: {
      const unreachable: never = notice
      return unreachable
    }
  }
}
