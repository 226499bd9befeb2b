import type { PolicyInput } from '../bridge/ask-policy.js'
import type { SlackBridge } from '../bridge/types.js'
import { isUserInteractionError, type AskUserQuestionRequest } from '../contract/index.js'
import type { AskOutcome } from './ask-outcome.js'
import { outcomeOfCode } from './ask-outcome.js'

/**
 * `dsh-slack ask` without `--url`: this process is the bridge. Ctrl-C
 * fires the request's signal, so the bridge withdraws the question (the
 * message says so) and `ask()` rejects with `ASK_ABORTED`.
 */
export async function askInProcess(bridge: SlackBridge, request: Record<string, unknown>, interrupt: AbortSignal): Promise<AskOutcome> {
  try {
    // The file is the HTTP body: its `policy` is held to the operator's rules here as it would be there.
    const { policy, ...rest } = request
    const answer = await bridge.provider.ask({ ...(rest as unknown as AskUserQuestionRequest), signal: interrupt }, policy === undefined ? {} : { policy: policy as PolicyInput })
    return { kind: 'answered', answer }
  } catch (error) {
    if (isUserInteractionError(error)) return outcomeOfCode(error.code, error.message)
    throw error
  }
}
