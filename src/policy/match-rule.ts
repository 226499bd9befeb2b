import { fitCommand, type Fit } from './command/command-pattern.js'
import { unknownPart, type CommandPart } from './command/normalise-command.js'
import { parseCommand } from './command/parse-command.js'
import { globToRegExp } from './glob.js'
import type { AskFacts, OperatorPolicy, OperatorRule, RuleMatch } from './operator-policy.js'
import { strictestRule } from './strictness.js'

export { globToRegExp } from './glob.js'

function anyGlob(globs: string[] | undefined, value: string | undefined): boolean {
  if (globs === undefined) return true
  // An unknown title, cwd or host does not match: the rule is about something else.
  if (value === undefined) return false
  return globs.some((glob) => globToRegExp(glob).test(value))
}

/**
 * Why a rule does not match, field by field (`policy explain`), leaving out
 * its command patterns: a command is matched part by part (resolveRule).
 */
export function mismatchOf(match: RuleMatch, facts: AskFacts): string | undefined {
  if (match.kind && !match.kind.includes(facts.kind)) return `kind is ${facts.kind}, the rule wants ${match.kind.join(' or ')}`
  const fields = ['tool', 'title', 'cwd', 'host'] as const
  for (const field of fields) {
    if (!anyGlob(match[field], facts[field])) return facts[field] === undefined ? `${field} is not known for this ask` : `${field} ${JSON.stringify(facts[field])} matches none of ${match[field]!.map((glob) => JSON.stringify(glob)).join(', ')}`
  }
  if (match.command && facts.command === undefined && facts.kind !== 'tool-approval') return 'command is not known for this ask'
  if (match.key && (facts.key === undefined || !match.key.includes(facts.key))) return facts.key === undefined ? 'the ask came without an API key' : `key ${facts.key} is not one of ${match.key.join(', ')}`
  return undefined
}

/** The rule one simple command falls under, and the rules it might fall under when words are only known at run time. */
export interface PartResolution {
  part: CommandPart
  rule: OperatorRule
  /** Every rule the part might fall under, in order (the last one it surely falls under). */
  candidates: OperatorRule[]
}

/** The rule an ask falls under and, for a command, how each of its simple commands decided it. */
export interface Resolution {
  rule: OperatorRule
  /** Absent when the ask has no command (questions, plan reviews). */
  parts?: PartResolution[]
}

/** The simple commands of a tool approval; unknown when the relay did not see the call's arguments. */
export function commandPartsOf(facts: AskFacts): CommandPart[] | undefined {
  if (facts.command !== undefined) return parseCommand(facts.command).parts
  return facts.kind === 'tool-approval' ? [unknownPart('', 'the call\'s arguments were not seen', [])] : undefined
}

/** How a rule's command patterns fit one part (`yes` for a rule without any). */
export function fitOf(rule: OperatorRule, part: CommandPart): Fit {
  return rule.match.command ? fitCommand(rule.match.command, part) : 'yes'
}

function resolvePart(policy: OperatorPolicy, rules: OperatorRule[], facts: AskFacts, part: CommandPart): PartResolution {
  const candidates: OperatorRule[] = []
  for (const rule of rules) {
    if (mismatchOf(rule.match, facts) !== undefined) continue
    const fit = fitOf(rule, part)
    if (fit === 'no') continue
    candidates.push(rule)
    if (fit === 'yes') return { part, rule: strictestRule(policy, candidates), candidates }
  }
  candidates.push(policy.defaults)
  return { part, rule: strictestRule(policy, candidates), candidates }
}

/**
 * The rule an ask falls under. Without a command: the first rule that
 * matches, else the defaults. With one: each simple
 * command falls under the first rule that matches it, or, when words are
 * only known at run time, the strictest rule it might fall under; the ask
 * then falls under the strictest of those. So a stricter rule applies when
 * any part matches it, and a looser one only when every part does.
 */
export function resolveRule(policy: OperatorPolicy, facts: AskFacts): Resolution {
  // A key's `rules:` list never skips a rule here: it refuses afterwards (key-rules.ts).
  const rules = policy.rules
  const parts = commandPartsOf(facts)
  if (parts === undefined) return { rule: rules.find((rule) => mismatchOf(rule.match, facts) === undefined) ?? policy.defaults }
  const resolved = parts.map((part) => resolvePart(policy, rules, facts, part))
  return { rule: strictestRule(policy, resolved.map((one) => one.rule)), parts: resolved }
}

/** The rule an ask falls under (resolveRule). */
export function matchRule(policy: OperatorPolicy, facts: AskFacts): OperatorRule {
  return resolveRule(policy, facts).rule
}
