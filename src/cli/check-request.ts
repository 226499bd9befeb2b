import { isUserInteractionError, validateRequest } from '../contract/index.js'
import { ApiError } from '../http/api-error.js'
import { parseCreateAskBody } from '../http/create-ask-body.js'
import type { AskOutcome } from './ask-outcome.js'

/**
 * Checks the request file of `dsh-slack ask` here, before anything connects:
 * the same envelope rules as `POST /v1/asks` (the file is that body) and the
 * same question rules as the library, so a misspelt field is named at once,
 * with or without `--url` and without any token. `undefined` when it is valid.
 */
export function requestProblem(request: Record<string, unknown>): Extract<AskOutcome, { kind: 'failed' }> | undefined {
  try {
    const body = parseCreateAskBody(request)
    validateRequest({ questions: body.questions, ...(body.agent ? { agent: body.agent } : {}) })
    return undefined
  } catch (error) {
    if (error instanceof ApiError || isUserInteractionError(error)) return { kind: 'failed', status: 'invalid', code: error.code, message: error.message }
    throw error
  }
}
