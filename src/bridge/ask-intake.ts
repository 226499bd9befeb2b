import { UserInteractionError, type ValidRequest } from '../contract/index.js'
import { timeoutProblem } from '../config/duration.js'
import type { AskFacts, OperatorPolicy } from '../policy/operator-policy.js'
import type { AskOwner, AskRecord } from '../store/ask-record.js'
import { agentView } from './agent-view.js'
import { newAskId } from './ask-ids.js'
import { approvalFacts, questionFacts, styleOfQuestions, type AskStyle } from './ask-policy.js'
import { decidePolicyOnce } from './policy-decisions.js'
import type { OpenApprovalInput, OpenAskOptions } from './types.js'

/** What a new ask's record is built from besides the request: the policy in force, who waits, the defaults, the time. */
export interface IntakeContext {
  policy: OperatorPolicy
  owner: AskOwner
  now: number
  /** Where asks go when neither the request nor the policy names a channel. */
  defaultChannel?: string
  defaultTimeoutMs?: number
}

/**
 * A new question ask's record, pending: the operator's policy decides where
 * it goes, under which rule, and what it may tighten. Pure: no I/O, no
 * clock but the one given. Refuses with `BAD_REQUEST` what cannot be asked.
 */
export function questionRecord(valid: ValidRequest, options: OpenAskOptions, context: IntakeContext): AskRecord {
  const style = styleOfQuestions(valid.questions)
  const seen = agentView(valid.agent)
  const record = newRecord('question', options, style, questionFacts(style, seen, options.origin), context)
  record.questions = valid.questions
  const agent = withHost(seen, options.host)
  if (agent) record.agent = agent
  return record
}

/** A new tool approval's record (relay), pending; as `questionRecord`. */
export function approvalRecord(input: OpenApprovalInput, options: OpenAskOptions, context: IntakeContext): AskRecord {
  if (typeof input.toolName !== 'string' || input.toolName.trim() === '') throw new UserInteractionError('BAD_REQUEST', 'an approval needs a tool name')
  const record = newRecord('approval', options, 'approval', approvalFacts(input.toolName, input.arguments, input.agent, options.origin), context)
  record.approval = { toolName: input.toolName }
  if (input.reason !== undefined) record.approval.reason = input.reason
  if (input.callId !== undefined) record.approval.callId = input.callId
  if (input.arguments !== undefined) record.approval.arguments = input.arguments
  const agent = withHost(input.agent, options.host)
  if (agent) record.agent = agent
  return record
}

function newRecord(kind: AskRecord['kind'], options: OpenAskOptions, style: AskStyle, facts: AskFacts, context: IntakeContext): AskRecord {
  const decision = decidePolicyOnce(context.policy, facts, { ...(options.policy !== undefined ? { policy: options.policy } : {}), ...(options.channel !== undefined ? { channel: options.channel } : {}) }, style)
  const target = decision.target ?? context.defaultChannel
  if (!target) throw new UserInteractionError('BAD_REQUEST', 'no channel to ask in: set SLACK_CHANNEL (or the channel option), or pass a channel with the request')
  const policy = decision.policy
  const createdAt = context.now
  const record: AskRecord = { id: newAskId(), kind, questions: [], target, status: 'pending', createdAt, owner: context.owner, rule: decision.rule.name }
  if (facts.key !== undefined) record.apiKey = facts.key
  const timeoutMs = options.timeoutMs ?? context.defaultTimeoutMs
  const problem = timeoutMs === undefined ? null : timeoutProblem(timeoutMs)
  if (problem) throw new UserInteractionError('BAD_REQUEST', `timeoutMs ${problem}`)
  if (timeoutMs !== undefined) record.expiresAt = createdAt + timeoutMs
  if (options.idempotencyKey !== undefined) record.idempotencyKey = options.idempotencyKey
  if (options.relayDelivery !== undefined) record.relayDelivery = { key: options.relayDelivery.key }
  if (policy) record.policy = policy
  return record
}

/** The agent view with the relay's host named, when it names one. */
function withHost(agent: AskRecord['agent'], host: string | undefined): AskRecord['agent'] {
  if (host === undefined || host.trim() === '') return agent
  return { ...agent, host }
}
