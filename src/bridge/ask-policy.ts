import type { ValidQuestion } from '../contract/index.js'
import type { AskFacts, AskKind, OperatorPolicy, OperatorRule } from '../policy/operator-policy.js'
import { matchRule } from '../policy/match-rule.js'
import { checkKeyRules } from '../policy/key-rules.js'
import { checkChannel, tightenPolicy, type AskStyle, type EffectivePolicy } from '../policy/tighten.js'
import type { AgentView } from '../../blocks/view.js'

export { MAX_APPROVALS, policyInputSchema, type PolicyInput } from '../policy/policy-input.js'
export type { AskStyle } from '../policy/tighten.js'

/** A plan review (a recognised intent) is approval-style, like a relayed tool approval. */
export function styleOfQuestions(questions: ValidQuestion[]): AskStyle {
  const only = questions.length === 1 ? questions[0]! : undefined
  return only?.intent?.kind === 'plan-review' && only.options.some((option) => option.label === only.intent!.approve) ? 'approval' : 'question'
}

/** What kind of ask a record is, in the policy's words (its rules' `kind`, `policy explain`, the list of asks). */
export function askKindOf(record: { kind: 'question' | 'approval'; questions: ValidQuestion[] }): AskKind {
  if (record.kind === 'approval') return 'tool-approval'
  return styleOfQuestions(record.questions) === 'approval' ? 'plan-review' : 'question'
}

/** Who sent an ask, as far as the bridge knows: the API key (HTTP API) and the harness host (relay). */
export interface AskOrigin {
  key?: string
  host?: string
}

/** The arguments a shell tool may read its command line from. */
const COMMAND_FIELDS = ['command', 'cmd'] as const

/** A shell word as `sh` reads it back: quoted only when it must be. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/**
 * The command of a tool call, when its arguments (JSON text from the model)
 * hold one, as a shell tool's do: what `match.command` patterns are matched
 * on. `undefined` (the command is unknown, so it falls to the strictest
 * rule that could apply) when the arguments are not JSON, when the command
 * is empty, or when `command` and `cmd` both hold one and they differ: the
 * tool may run either, so neither can stand for the call.
 */
export function commandOf(argumentsText: string | undefined): string | undefined {
  if (argumentsText === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(argumentsText)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const found = new Set<string | undefined>()
  for (const field of COMMAND_FIELDS) {
    if (!Object.hasOwn(parsed, field)) continue
    const value = (parsed as Record<string, unknown>)[field]
    if (typeof value === 'string') found.add(value)
    // An argv list runs those words exactly: quote them so the parser reads the same words back.
    else if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string')) found.add(value.map(shellQuote).join(' '))
    else found.add(undefined)
  }
  const [command, ...others] = [...found]
  if (others.length > 0 || command === undefined || command.trim() === '') return undefined
  return command
}

/** The facts of a question ask. */
export function questionFacts(style: AskStyle, agent: AgentView | undefined, origin: AskOrigin = {}): AskFacts {
  return withOrigin({ kind: style === 'approval' ? 'plan-review' : 'question', ...agentFacts(agent) }, origin)
}

/** The facts of a tool approval. */
export function approvalFacts(toolName: string, argumentsText: string | undefined, agent: AgentView | undefined, origin: AskOrigin = {}): AskFacts {
  const facts: AskFacts = { kind: 'tool-approval', tool: toolName, ...agentFacts(agent) }
  const command = commandOf(argumentsText)
  if (command !== undefined) facts.command = command
  return withOrigin(facts, origin)
}

function agentFacts(agent: AgentView | undefined): Pick<AskFacts, 'title' | 'cwd'> {
  const facts: Pick<AskFacts, 'title' | 'cwd'> = {}
  if (agent?.title) facts.title = agent.title
  if (agent?.cwd) facts.cwd = agent.cwd
  return facts
}

function withOrigin(facts: AskFacts, origin: AskOrigin): AskFacts {
  if (origin.key !== undefined) facts.key = origin.key
  if (origin.host !== undefined) facts.host = origin.host
  return facts
}

/** What the operator's policy decides for one ask. */
export interface PolicyDecision {
  rule: OperatorRule
  /** Where it goes. */
  target: string | undefined
  policy: EffectivePolicy | undefined
}

/**
 * Applies the operator's policy to one ask: the first matching rule, the
 * request's `policy` and `channel` allowed only where they tighten it
 * (`POLICY_FORBIDDEN` otherwise, naming the rule and the field).
 */
export function decidePolicy(operator: OperatorPolicy, facts: AskFacts, request: { policy?: unknown; channel?: string }, style: AskStyle): PolicyDecision {
  const key = facts.key === undefined ? undefined : operator.keys.find((entry) => entry.name === facts.key)
  const rule = matchRule(operator, facts)
  checkKeyRules(operator, facts, rule)
  const own = rule.channel ?? operator.defaults.channel
  if (request.channel !== undefined) checkChannel(rule, request.channel, own, key?.channels, key?.name)
  let policy = tightenPolicy(rule, request.policy, style, operator.defaults.answerers)
  // A rule's own `mention` (the card notifies one id) rides with the ask; the defaults' is the bridge's setting.
  const mention = rule.mention[0]
  if (rule !== operator.defaults && mention !== undefined && mention !== operator.defaults.mention[0]) policy = { ...(policy ?? { approvals: 1 }), mention }
  return { rule, target: request.channel ?? own, policy }
}
