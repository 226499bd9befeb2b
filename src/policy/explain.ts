import { checkKeyRules } from './key-rules.js'
import { formatDuration } from '../config/duration.js'
import { isUserInteractionError } from '../contract/index.js'
import { mismatchOf } from './match-rule.js'
import type { AskFacts, OperatorPolicy, OperatorRule } from './operator-policy.js'
import { checkChannel, tightenPolicy, type AskStyle, type EffectivePolicy } from './tighten.js'

/** What `policy explain` found: the lines to print, and whether the request would be accepted. */
export interface Explanation {
  lines: string[]
  accepted: boolean
}

function describeFacts(facts: AskFacts): string {
  const parts: string[] = [facts.kind]
  if (facts.tool !== undefined) parts.push(`tool ${facts.tool}`)
  if (facts.command !== undefined) parts.push(`command ${JSON.stringify(facts.command)}`)
  if (facts.title !== undefined) parts.push(`title ${JSON.stringify(facts.title)}`)
  if (facts.cwd !== undefined) parts.push(`cwd ${facts.cwd}`)
  if (facts.host !== undefined) parts.push(`host ${facts.host}`)
  parts.push(facts.key !== undefined ? `key ${facts.key}` : 'no API key')
  return parts.join(', ')
}

const list = (ids: string[]) => (ids.length > 0 ? ids.join(', ') : 'anyone who can see the message')

/**
 * Says which rule an ask falls under and why, and what it then needs:
 * channel, who answers and approves, quorum, reminder, escalation, and
 * whether the request's own `policy`/`channel` would be accepted.
 */
export function explain(policy: OperatorPolicy, facts: AskFacts, request: { policy?: unknown; channel?: string }, style: AskStyle, fallbackChannel?: string): Explanation {
  const lines = [`policy: ${policy.source} (version ${policy.version})`, `ask: ${describeFacts(facts)}`]
  const key = facts.key === undefined ? undefined : policy.keys.find((entry) => entry.name === facts.key)
  if (facts.key !== undefined && !key) lines.push(`  note: no key named ${facts.key}; the service would answer 401`)
  let matched: OperatorRule | undefined
  for (const rule of policy.rules) {
    if (matched) {
      lines.push(`  - ${rule.name}: not tried (an earlier rule matched)`)
      continue
    }
    const why = mismatchOf(rule.match, facts)
    if (why === undefined) {
      matched = rule
      lines.push(`  ✓ ${rule.name}: matches`)
    } else lines.push(`  - ${rule.name}: ${why}`)
  }
  const rule = matched ?? policy.defaults
  lines.push(matched ? `rule: ${rule.name} (the first that matches)` : `rule: ${rule.name} (no rule matches${policy.rules.length === 0 ? ': the policy has none' : ''})`)
  const channel = request.channel ?? rule.channel ?? policy.defaults.channel ?? fallbackChannel
  let effective: EffectivePolicy | undefined
  try {
    checkKeyRules(policy, facts, rule)
    if (request.channel !== undefined) checkChannel(rule, request.channel, rule.channel ?? policy.defaults.channel ?? fallbackChannel, key?.channels, key?.name)
    effective = tightenPolicy(rule, request.policy, style, policy.defaults.answerers)
  } catch (error) {
    if (!isUserInteractionError(error)) throw error
    lines.push(`refused: ${error.code}: ${error.message}`)
    return { lines, accepted: false }
  }
  lines.push(`channel: ${channel ?? '(none: set SLACK_CHANNEL or the rule\'s channel)'}${request.channel !== undefined ? ' (the request\'s)' : ''}`)
  lines.push(`answerers: ${list(effective?.answerers ?? policy.defaults.answerers)}`)
  if (style === 'approval') {
    lines.push(`approvers: ${effective?.approvers ? effective.approvers.join(', ') : 'the answerers'}`)
    lines.push(`approvals: ${effective?.approvals ?? 1}`)
  } else {
    lines.push(`approvals: none (a ${facts.kind} is answered by the first allowed person)`)
    if (effective?.approvers) lines.push(`decided by: ${effective.approvers.join(', ')}`)
  }
  const notify = effective?.approvers ? (effective.notify ?? []) : rule.mention
  lines.push(effective?.remindAfterMs !== undefined ? `reminder: after ${formatDuration(effective.remindAfterMs)}, mentioning ${notify.length > 0 ? notify.join(', ') : 'nobody'}` : 'reminder: none')
  lines.push(effective?.escalateTo !== undefined ? `escalation: to ${effective.escalateTo} after ${formatDuration(effective.escalateAfterMs!)}` : 'escalation: none')
  lines.push(request.policy === undefined ? 'request policy: none (the rule applies as it is)' : 'request policy: accepted (it only tightens the rule)')
  return { lines, accepted: true }
}
