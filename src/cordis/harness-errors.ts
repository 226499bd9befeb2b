import { isUserInteractionError } from '../contract/index.js'
import type { UserQuestionsSeam } from './harness-context.js'

/** The harness's `UserQuestionError` constructor: `(message, code, options)`. */
export type HarnessErrorClass = new (message: string, code: string, options?: ErrorOptions) => Error & { code: string }

/**
 * The error class the running harness checks with `instanceof` (plan mode
 * reads an `ASK_CANCELLED` `UserQuestionError` as "dismissed: wait for the
 * user"). It must be the harness's own class object, and importing
 * `@deepseek-ai/dsh-user-questions` from here would not guarantee that: a
 * linked or separately installed plugin resolves its own copy, a different
 * class that fails every `instanceof`. So it is taken from the harness
 * itself: its `ask()` with no questions rejects with `EMPTY_QUESTIONS`
 * before anything else happens (the seam's documented first checks), and
 * that rejection's constructor is the class.
 */
export async function harnessErrorClassOf(seam: UserQuestionsSeam): Promise<HarnessErrorClass | undefined> {
  try {
    await seam.ask({ questions: [] })
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'EMPTY_QUESTIONS' && error.constructor !== Error) {
      return error.constructor as HarnessErrorClass
    }
  }
  return undefined
}

/**
 * dsh-slack's `UserInteractionError` as the harness's own error, same
 * message and code, the original kept as `cause`. Anything else (and every
 * error when the class could not be found) passes through unchanged.
 */
export function inHarnessTerms(error: unknown, HarnessError: HarnessErrorClass | undefined): unknown {
  if (!HarnessError || !isUserInteractionError(error)) return error
  return new HarnessError(error.message, error.code, { cause: error })
}
