import type { AskUserQuestionAnswer } from '../contract/index.js'
import type { AskStatus } from '../store/ask-record.js'
import { EXIT } from './exit-codes.js'

/** How an `ask` ended, whichever way it was asked (service or in-process). */
export type AskOutcome =
  | { kind: 'answered'; answer: AskUserQuestionAnswer }
  | { kind: 'failed'; status: Exclude<AskStatus, 'answered' | 'pending'> | 'invalid'; code: string; message: string }

/** The exit code for an outcome (ARCHITECTURE.md, fixed: 0 / 2 / 3 / 4 / 1). */
export function exitCodeOf(outcome: AskOutcome, interrupted: boolean): number {
  if (outcome.kind === 'answered') return EXIT.ok
  if (interrupted && outcome.status === 'aborted') return EXIT.interrupted
  switch (outcome.status) {
    case 'invalid':
      return EXIT.invalid
    case 'cancelled':
      return EXIT.cancelled
    case 'expired':
      return EXIT.expired
    case 'aborted':
    case 'failed':
      return EXIT.failure
  }
}

/** The seam codes that mean the request itself was wrong (or asked for more than the operator allows): exit 2. */
export const INVALID_REQUEST_CODES: readonly string[] = ['EMPTY_QUESTIONS', 'BAD_INTENT', 'BAD_REQUEST', 'POLICY_FORBIDDEN']

/** The outcome for a seam error code (in-process asks reject with one). */
export function outcomeOfCode(code: string, message: string): AskOutcome {
  if (INVALID_REQUEST_CODES.includes(code)) return { kind: 'failed', status: 'invalid', code, message }
  const status = code === 'ASK_CANCELLED' ? 'cancelled' : code === 'ASK_EXPIRED' ? 'expired' : code === 'ASK_ABORTED' ? 'aborted' : 'failed'
  return { kind: 'failed', status, code, message }
}
