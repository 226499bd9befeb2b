import { agentView } from '../bridge/agent-view.js'
import type { OpenApprovalInput, SlackBridge } from '../bridge/types.js'
import { isUserInteractionError, type AgentLike } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import { toolCallsOf } from '../relay/frames.js'
import type { AskRecord } from '../store/ask-record.js'
import type { ApprovalAnswerer, ApprovalOutcome, HarnessApprovalRequest } from './harness-context.js'
import { describeError, type OffSwitch } from './off-switch.js'

/** How long one wait for a decision lasts before it is renewed (the wait itself has no end: an approval waits for a person). */
const DECISION_WAIT_MS = 60_000

/**
 * The harness's `approval/request` answerer: the tool approval becomes the
 * same Slack card the relay posts (quorum, approvers, Home tab, audit), and
 * the person's decision is the outcome. A request withdrawn by the harness
 * (its `signal`: the turn was cancelled) withdraws the card.
 *
 * It claims every request it can post and never calls `next()`: answerers
 * are a waterfall, and a later one (another UI) would otherwise ask the
 * same question a second time with no way to withdraw it when Slack
 * answers first. Where the host has its own UI, dsh-slack does not answer
 * at all (see `index.ts`).
 */
export function slackApprovalAnswerer(bridge: () => Promise<SlackBridge>, off: OffSwitch, logger: Logger): ApprovalAnswerer {
  return async (request) => {
    if (request.signal?.aborted) return 'cancelled'
    // Off (a failed start says so itself): fail closed, as the harness does with no answerer.
    const slack = off.isOff ? undefined : await bridge().catch(() => undefined)
    if (!slack || off.isOff) return 'unavailable'
    try {
      let record: AskRecord
      try {
        record = await slack.openApproval(approvalInput(request))
      } catch (error) {
        // One card Slack refused (channel, rate limit): this approval fails closed, the plugin stays on.
        if (!isUserInteractionError(error)) throw error
        logger.warn(`tool approval for ${request.toolName} could not be posted to Slack: ${describeError(error)}`)
        return 'unavailable'
      }
      return await decisionOf(slack, record, request.signal)
    } catch (error) {
      // Anything else is a broken plugin: a throw here would reach the harness's run.
      off.turnOff(`a tool approval failed: ${describeError(error)}`)
      return 'unavailable'
    }
  }
}

async function decisionOf(slack: SlackBridge, record: AskRecord, signal: AbortSignal | undefined): Promise<ApprovalOutcome> {
  const withdraw = () => void slack.abort(record.id)
  signal?.addEventListener('abort', withdraw, { once: true })
  // Withdrawn while the card was being posted: the listener came too late for it.
  if (signal?.aborted) withdraw()
  try {
    for (;;) {
      const latest = await slack.waitForSettlement(record.id, DECISION_WAIT_MS, signal)
      if (!latest) return 'unavailable'
      if (latest.settlement) return outcomeOf(latest)
      if (signal?.aborted) return 'cancelled'
    }
  } finally {
    signal?.removeEventListener('abort', withdraw)
  }
}

/**
 * A settled approval as the harness's outcome. Dismissed and expired are
 * rejections (an approval has no "cancel" answer, and an undecided
 * permission fails closed), as the relay answers a host; withdrawn or
 * stopped is `cancelled`; a card that could not be posted is `unavailable`.
 */
export function outcomeOf(record: AskRecord): ApprovalOutcome {
  const outcome = record.settlement?.outcome
  switch (outcome?.kind) {
    case 'decided':
      return outcome.decision
    case 'dismissed':
    case 'expired':
      return 'rejected'
    case 'aborted':
    case 'stopped':
    case 'settled-elsewhere':
      return 'cancelled'
    case 'answered':
    case 'failed':
    case undefined:
      return 'unavailable'
    default: {
      const unknown: never = outcome
      return unknown
    }
  }
}

function approvalInput(request: HarnessApprovalRequest): OpenApprovalInput {
  const input: OpenApprovalInput = { toolName: request.toolName }
  if (request.reason !== undefined) input.reason = request.reason
  if (request.callId !== undefined) {
    input.callId = request.callId
    const call = callOf(request)
    if (call !== undefined) input.arguments = call
  }
  const agent = agentView(request.agent as AgentLike)
  if (agent) input.agent = agent
  return input
}

/** The arguments of the call being approved, from the agent's own session log (newest first: the call was just made). */
function callOf(request: HarnessApprovalRequest): string | undefined {
  const events = request.agent.session?.events ?? []
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const call = toolCallsOf(events[index]!).find((candidate) => candidate.callId === request.callId && candidate.toolName === request.toolName)
    if (call) return call.arguments
  }
  return undefined
}
