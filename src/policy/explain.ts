import { checkKeyRules } from './key-rules.js'
import { formatDuration } from '../config/duration.js'
import { isUserInteractionError } from '../contract/index.js'
import type { CommandPart } from './command/normalise-command.js'
import { partText } from './command/parse-command.js'
import { fitOf, mismatchOf, resolveRule, type PartResolution, type Resolution } from './match-rule.js'
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

/** How much of a command `policy explain` quotes (a refused one may be megabytes). */
const QUOTED_SOURCE = 200

function quoted(source: string): string {
  return JSON.stringify(source.length > QUOTED_SOURCE ? `${source.slice(0, QUOTED_SOURCE - 1)}…` : source)
}

/** A part as `policy explain` shows it: its normalised words (and why some are only known when it runs), or why it is not understood. */
function describePart(part: CommandPart): string {
  const via = part.via.length > 0 ? ` (through ${part.via.join(', ')})` : ''
  if (part.unknown !== undefined) return `not understood: ${part.unknown}${part.source !== '' ? ` in ${quoted(part.source)}` : ''}`
  const words = part.unknownWords ? ` (?: ${part.unknownWords.join('; ')})` : ''
  return `${partText(part)}${part.openEnded ? ' …' : ''}${via}${words}`
}

function describeParts(parts: PartResolution[]): string[] {
  const count = parts.length === 1 ? '1 simple command' : `${parts.length} simple commands`
  return [`command: parsed into ${count}`, ...parts.map((one, index) => `  ${index + 1}. ${describePart(one.part)}`)]
}

const numbers = (indexes: number[]) => indexes.map((index) => index + 1).join(', ')

/** Each rule, and why it does or does not match (for a command: which parts it matches). */
function describeRules(policy: OperatorPolicy, facts: AskFacts, resolution: Resolution): string[] {
  const lines: string[] = []
  const parts = resolution.parts
  // A part stops at the first rule it surely falls under; later rules are not tried for it.
  const stops = parts?.map((one) => policy.rules.indexOf(one.candidates.at(-1)!))
  let firstMatch: number | undefined
  for (const [index, rule] of policy.rules.entries()) {
    const settled = parts ? stops!.every((stop) => stop !== -1 && stop < index) : firstMatch !== undefined
    if (settled) {
      lines.push(`  - ${rule.name}: not tried (an earlier rule matched)`)
      continue
    }
    const why = mismatchOf(rule.match, facts)
    if (why !== undefined) lines.push(`  - ${rule.name}: ${why}`)
    else if (!parts || !rule.match.command) {
      firstMatch ??= index
      lines.push(`  ✓ ${rule.name}: matches`)
    } else lines.push(commandLine(rule, parts))
  }
  return lines
}

function commandLine(rule: OperatorRule, parts: PartResolution[]): string {
  const fits = parts.map((one) => fitOf(rule, one.part))
  const yes = fits.flatMap((fit, index) => (fit === 'yes' ? [index] : []))
  const maybe = fits.flatMap((fit, index) => (fit === 'maybe' ? [index] : []))
  const single = parts.length === 1
  if (yes.length === 0 && maybe.length === 0) return `  - ${rule.name}: ${single ? `${JSON.stringify(partText(parts[0]!.part))} matches none of its command patterns` : 'no simple command matches its command patterns'}`
  const sure = yes.length > 0 ? (single ? 'matches' : `matches simple command ${numbers(yes)}`) : undefined
  const notUnderstood = maybe.filter((index) => parts[index]!.part.unknown !== undefined).length
  const why = notUnderstood === maybe.length ? `${single ? 'it is' : maybe.length === 1 ? 'it is' : 'they are'} not understood, so any rule might apply` : notUnderstood === 0 ? 'some of its words are only known when it runs' : 'not understood, or with words only known when it runs'
  const might = maybe.length > 0 ? `${single ? 'might match' : `might match simple command ${numbers(maybe)}`} (${why})` : undefined
  return `  ${yes.length > 0 ? '✓' : '?'} ${rule.name}: ${[sure, might].filter(Boolean).join('; ')}`
}

function ruleLine(policy: OperatorPolicy, resolution: Resolution): string {
  const { rule, parts } = resolution
  const none = `no rule matches${policy.rules.length === 0 ? ': the policy has none' : ''}`
  if (!parts) return rule === policy.defaults ? `rule: ${rule.name} (${none})` : `rule: ${rule.name} (the first that matches)`
  if (parts.length === 1 && parts[0]!.candidates.length === 1) return rule === policy.defaults ? `rule: ${rule.name} (${none})` : `rule: ${rule.name} (the first that matches)`
  if (parts.length === 1) return `rule: ${rule.name} (the strictest of the rules it might fall under: ${parts[0]!.candidates.map((one) => one.name).join(', ')})`
  const each = parts.map((one, index) => `${index + 1} → ${one.rule.name}`).join(', ')
  return `rule: ${rule.name} (the strictest of the rules its simple commands may fall under: ${each})`
}

/**
 * Says which rule an ask falls under and why, and what it then needs:
 * channel, who answers and approves, quorum, reminder, escalation, and
 * whether the request's own `policy`/`channel` would be accepted.
 */
export function explain(policy: OperatorPolicy, facts: AskFacts, request: { policy?: unknown; channel?: string }, style: AskStyle, fallbackChannel?: string): Explanation {
  const lines = [`policy: ${policy.source} (version ${policy.version})`, `ask: ${describeFacts(facts)}`]
  const key = facts.key === undefined ? undefined : policy.keys.find((entry) => entry.name === facts.key)
  if (facts.key !== undefined && !key) lines.push(`  note: no key named ${facts.key}; the service would answer 401`)
  const resolution = resolveRule(policy, facts)
  if (resolution.parts) lines.push(...describeParts(resolution.parts))
  lines.push(...describeRules(policy, facts, resolution))
  const rule = resolution.rule
  lines.push(ruleLine(policy, resolution))
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
