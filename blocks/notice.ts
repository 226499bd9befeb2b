/**
 * Ephemeral notices to one person: someone else answered first, you may not
 * answer, the question is closed, pick something first, it failed. Mrkdwn
 * text for chat.postEphemeral, in the bridge's language.
 */
import { personMrkdwn } from './context.js'
import { wordsFor } from './i18n.js'
import { LIMIT } from './limits.js'
import { escapeMrkdwn, fitEscaped, shownText } from './text.js'
import type { Locale, Outcome, Person } from './view.js'

/** What an ephemeral notice says. */
export type Notice =
  /** A late click on a settled question: says who answered, dismissed or decided, when known. */
  | { kind: 'already-settled'; outcome: Outcome }
  /** A late click when only the person who answered is known. */
  | { kind: 'already-answered'; by?: Person }
  /** The person is not among the allowed users or groups. */
  | { kind: 'not-allowed' }
  /** The question was withdrawn, expired or otherwise closed. */
  | { kind: 'closed' }
  /**
   * This process has no record of the question, and its store is not shared,
   * so another process on the same Slack app probably posted it: nothing was
   * recorded, and nothing is claimed about whether it is still open.
   */
  | { kind: 'unknown-here' }
  /** Submit with nothing chosen. */
  | { kind: 'pick-something' }
  /** The answer could not be recorded. */
  | { kind: 'failed' }
  /** A thread reply was recorded: as the Other answer to `question` (agent text, escaped here), or as a plan's feedback. */
  | { kind: 'reply-recorded'; as: 'other'; question: string }
  | { kind: 'reply-recorded'; as: 'feedback' }
  /** A thread reply on a card a reply cannot answer: a batch of questions, a tool approval. */
  | { kind: 'reply-not-an-answer'; card: 'batch' | 'approval' }
  /** A thread reply whose text cannot be an answer; `problem` is ours (blank, too long). */
  | { kind: 'reply-refused'; problem: string }
  /** Relay: the answer reached a host that no longer held the request. */
  | { kind: 'undelivered' }
  /** Request changes was recorded without `count` canvas comments whose authors may not answer the ask (decision 0091). */
  | { kind: 'comments-left-out'; count: number }
  /**
   * A choice on a carousel card was kept as the person's draft (decision
   * 0077): which question (agent text, escaped here), which option, and how
   * many of the batch's questions they have chosen for.
   */
  | { kind: 'choice-noted'; question: string; label: string; chosen: number; total: number }
  /** An approval towards a quorum was counted. */
  | { kind: 'approval-counted'; given: number; required: number }
  /** The same person approved again: they count once. */
  | { kind: 'already-approved'; given: number; required: number }

export type NoticeKind = Notice['kind']

export function noticeText(locale: Locale, notice: Notice): string {
  const words = wordsFor(locale)
  switch (notice.kind) {
    case 'already-settled': {
      const outcome = notice.outcome
      if (outcome.kind === 'answered') return words.alreadyAnsweredBy(personMrkdwn(outcome.by))
      if (outcome.kind === 'dismissed') return words.alreadyDismissedBy(personMrkdwn(outcome.by))
      if (outcome.kind === 'decided') return words.alreadyDecidedBy(personMrkdwn(outcome.by))
      return words.closed
    }
    case 'already-answered':
      return notice.by === undefined ? words.alreadySettled : words.alreadyAnsweredBy(personMrkdwn(notice.by))
    case 'not-allowed':
      return words.notAllowed
    case 'closed':
      return words.closed
    case 'unknown-here':
      return words.unknownHere
    case 'pick-something':
      return words.pickSomething
    case 'failed':
      return words.failedNotice
    case 'undelivered':
      return words.undeliveredNotice
    case 'comments-left-out':
      return words.commentsLeftOut(notice.count)
    case 'reply-recorded':
      return notice.as === 'feedback' ? words.replyRecordedAsFeedback : words.replyRecordedAsOther(fitEscaped(escapeMrkdwn(shownText(notice.question)), LIMIT.homeQuestionText))
    case 'reply-not-an-answer':
      return notice.card === 'batch' ? words.replyNotForBatch : words.replyNotForApproval
    case 'reply-refused':
      return words.replyRefused(notice.problem)
    case 'choice-noted': {
      const quote = (text: string) => fitEscaped(escapeMrkdwn(shownText(text)), LIMIT.homeQuestionText)
      return words.choiceNoted(quote(notice.question), quote(notice.label), notice.chosen, notice.total)
    }
    case 'approval-counted':
      return words.approvalCounted(notice.given, notice.required)
    case 'already-approved':
      return words.alreadyApproved(notice.given, notice.required)
    default: {
      const unreachable: never = notice
      return unreachable
    }
  }
}

/** Why a form input was refused, shown under it (`response_action: 'errors'`). */
export type FormProblem = 'both' | 'invalid'

export function formErrorText(locale: Locale, problem: FormProblem): string {
  const words = wordsFor(locale)
  return problem === 'both' ? words.formBoth : words.formInvalid
}
