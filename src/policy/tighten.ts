import { parseDuration } from '../config/duration.js'
import { UserInteractionError } from '../contract/index.js'
import { namedIds, type OperatorRule } from './operator-policy.js'
import { policyInputSchema } from './policy-input.js'

/** What an ask is, for the quorum rules: only plan reviews and tool approvals have an "approve" to count. */
export type AskStyle = 'approval' | 'question'

/**
 * The rules one ask is held to, stored with it so every instance and every
 * restart (and a policy reload) applies the same ones.
 */
export interface EffectivePolicy {
  /** Distinct approvals needed to approve (1–10); 1 is Slack's ordinary "first click wins". */
  approvals: number
  /** User (U…/W…) and user-group (S…) ids who may act on this ask; absent: the bridge's allowed users. */
  approvers?: string[]
  /** Who may answer, when the operator's rule names its own (absent: the bridge's allowed users). */
  answerers?: string[]
  /** Whom a reminder mentions instead of the approvers: only ids the operator's policy names. */
  notify?: string[]
  /** Who the card notifies when the ask's rule names its own (absent: DSH_SLACK_MENTION / the policy's defaults). */
  mention?: string
  /** Remind in the question's thread after this long without an answer. */
  remindAfterMs?: number
  /** Bring the question to this user or user group… */
  escalateTo?: string
  /** …after this long without an answer. */
  escalateAfterMs?: number
}

/** Refuses a request looser than the operator's rule, naming the rule and the field. */
export function forbidden(rule: OperatorRule, field: string, why: string): UserInteractionError {
  return new UserInteractionError('POLICY_FORBIDDEN', `${field} is looser than the operator's policy (rule "${rule.name}"): ${why}. A request may only tighten the policy: more approvals, fewer approvers, earlier reminders`)
}

function ms(name: string, value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined
  const parsed = typeof value === 'number' ? value : parseDuration(value)
  if (parsed === null || !(parsed > 0)) throw new UserInteractionError('BAD_REQUEST', `policy.${name} ${JSON.stringify(value)} is not a duration (expected milliseconds, or text like 90s, 15m or 2h)`)
  return parsed
}

/**
 * The policy an ask gets: the operator's rule, tightened by the request's
 * `policy` where it asks for more, and refused (`POLICY_FORBIDDEN`) where it
 * asks for less. Never silently widened:
 * - `approvals` at least the rule's (approval-style asks; a quorum on a
 *   plain question is `BAD_REQUEST`: it has no "approve" to count);
 * - `approvers` a subset of the ids the rule lets decide (its approvers for
 *   approvals, else its answerers; anyone when the rule lets anyone);
 * - `remindAfter`/`escalateAfter` no later than the rule's;
 * - `escalateTo` the rule's own target, or (when it has none) an id the
 *   policy names.
 * Reminders mention only ids the operator named (`notify`). Returns
 * undefined when nothing differs from Slack's ordinary behaviour.
 */
/** What a request without `policy` asks for: nothing. Parsed once, not per ask. */
const NO_POLICY_INPUT = Object.freeze(policyInputSchema.parse({}))

function parsedPolicyInput(input: unknown): typeof NO_POLICY_INPUT {
  const parsed = policyInputSchema.safeParse(input)
  if (!parsed.success) throw new UserInteractionError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'policy is malformed')
  return parsed.data
}

export function tightenPolicy(rule: OperatorRule, input: unknown, style: AskStyle, defaultAnswerers: string[] = rule.answerers): EffectivePolicy | undefined {
  const given = input === undefined ? NO_POLICY_INPUT : parsedPolicyInput(input)
  if (style === 'question' && given.approvals !== undefined && given.approvals > 1) {
    throw new UserInteractionError('BAD_REQUEST', `policy.approvals ${given.approvals} needs a plan review or a tool approval: a plain question has no "approve" to count (drop policy.approvals, or ask with intent plan-review)`)
  }
  const baseApprovals = style === 'approval' ? rule.approvals : 1
  if (given.approvals !== undefined && given.approvals < baseApprovals) throw forbidden(rule, 'policy.approvals', `${given.approvals} is fewer than the ${baseApprovals} approvals it needs`)
  const policy: EffectivePolicy = { approvals: Math.max(given.approvals ?? baseApprovals, baseApprovals) }

  const ruleApprovers = style === 'approval' && rule.approvers.length > 0 ? rule.approvers : undefined
  const answerers = rule.answerers.length > 0 ? rule.answerers : defaultAnswerers
  const deciders = ruleApprovers ?? answerers
  if (given.approvers !== undefined && deciders.length > 0) {
    const outsider = given.approvers.find((id) => !deciders.includes(id))
    if (outsider !== undefined) throw forbidden(rule, 'policy.approvers', `${outsider} is not among the ${ruleApprovers ? 'approvers' : 'people allowed to answer'} it names (${deciders.join(', ')})`)
  }
  const approvers = given.approvers ?? ruleApprovers
  if (approvers) policy.approvers = [...new Set(approvers)]
  if (rule.answerers.length > 0) policy.answerers = [...rule.answerers]

  const named = namedIds(rule)
  for (const id of defaultAnswerers) named.add(id)
  // Approvers the request picked are pinged only if the operator named them too.
  if (approvers) policy.notify = [...new Set(approvers.filter((id) => named.has(id)))]

  const remindAfterMs = ms('remindAfter', given.remindAfter)
  if (remindAfterMs !== undefined && rule.remindAfterMs !== undefined && remindAfterMs > rule.remindAfterMs) throw forbidden(rule, 'policy.remindAfter', `a reminder after ${remindAfterMs} ms comes later than its ${rule.remindAfterMs} ms`)
  const remind = remindAfterMs ?? rule.remindAfterMs
  if (remind !== undefined) policy.remindAfterMs = remind

  const escalateAfterMs = ms('escalateAfter', given.escalateAfter)
  if (given.escalateTo !== undefined) {
    if (rule.escalateTo !== undefined && given.escalateTo !== rule.escalateTo) throw forbidden(rule, 'policy.escalateTo', `it escalates to ${rule.escalateTo}, not ${given.escalateTo}`)
    if (!named.has(given.escalateTo)) throw forbidden(rule, 'policy.escalateTo', `${given.escalateTo} is not named by the policy (only people and groups the operator names are brought in)`)
  }
  if (escalateAfterMs !== undefined && rule.escalateAfterMs !== undefined && escalateAfterMs > rule.escalateAfterMs) throw forbidden(rule, 'policy.escalateAfter', `escalating after ${escalateAfterMs} ms comes later than its ${rule.escalateAfterMs} ms`)
  const escalateTo = given.escalateTo ?? rule.escalateTo
  const escalateAfter = escalateAfterMs ?? rule.escalateAfterMs
  if ((escalateTo === undefined) !== (escalateAfter === undefined)) {
    throw new UserInteractionError('BAD_REQUEST', escalateTo === undefined ? 'policy.escalateAfter needs policy.escalateTo (whom to bring the question to)' : 'policy.escalateTo needs policy.escalateAfter (how long to wait first, e.g. "1h")')
  }
  if (escalateTo !== undefined && escalateAfter !== undefined) {
    policy.escalateTo = escalateTo
    policy.escalateAfterMs = escalateAfter
  }
  return policy.approvals === 1 && Object.keys(policy).length === 1 ? undefined : policy
}

/**
 * Whether a request may name `channel`: the rule's own channel, one of the
 * channels it lets requests pick, and (with an API key that lists channels)
 * one of the key's.
 */
export function checkChannel(rule: OperatorRule, channel: string, defaultChannel: string | undefined, keyChannels?: string[], keyName?: string): void {
  const own = rule.channel ?? defaultChannel
  if (keyChannels !== undefined && channel !== own && !keyChannels.includes(channel)) throw forbidden(rule, 'channel', `API key ${keyName ?? '(unnamed)'} may ask in ${[own, ...keyChannels].filter(Boolean).join(', ')}, not ${channel}`)
  if (channel === own || rule.channels === '*' || rule.channels.includes(channel) || keyChannels?.includes(channel)) return
  throw forbidden(rule, 'channel', `its asks go to ${own ?? '(no channel)'}${rule.channels.length > 0 ? ` or ${rule.channels.join(', ')}` : ''}, not ${channel}`)
}
