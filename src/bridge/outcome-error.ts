import type { AskUserQuestionAnswer } from '../contract/index.js'
import { UserInteractionError } from '../contract/index.js'
import type { AskRecord } from '../store/ask-record.js'

/**
 * What `ask()` gives back for a settled record: the answer, or the
 * `UserInteractionError` its settlement names.
 */
export function answerOrError(record: AskRecord): AskUserQuestionAnswer | UserInteractionError {
  const settlement = record.settlement
  if (record.status === 'answered' && settlement?.answer) return settlement.answer
  if (settlement?.error) return new UserInteractionError(settlement.error.code, settlement.error.message)
  // Settled outside Slack with no answer we can give (relay only).
  return new UserInteractionError('ASK_ABORTED', `the question was closed (${record.status})`)
}
