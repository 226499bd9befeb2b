import type { AskFacts, OperatorPolicy, OperatorRule, RuleMatch } from './operator-policy.js'

const globCache = new Map<string, RegExp>()

/**
 * A glob as people write them in shell: `*` any run of characters
 * (including `/`: `/srv/payments/*` covers every folder below), `?` one
 * character, everything else literal. Whole-string, case-sensitive.
 */
export function globToRegExp(glob: string): RegExp {
  let cached = globCache.get(glob)
  if (!cached) {
    const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*').replace(/\?/g, '.')
    cached = new RegExp(`^${body}$`, 's')
    globCache.set(glob, cached)
  }
  return cached
}

function anyGlob(globs: string[] | undefined, value: string | undefined): boolean {
  if (globs === undefined) return true
  // An unknown title, cwd or host does not match: the rule is about something else.
  if (value === undefined) return false
  return globs.some((glob) => globToRegExp(glob).test(value))
}

/** Why a rule does or does not match, field by field (`policy explain`). */
export function mismatchOf(match: RuleMatch, facts: AskFacts): string | undefined {
  if (match.kind && !match.kind.includes(facts.kind)) return `kind is ${facts.kind}, the rule wants ${match.kind.join(' or ')}`
  const fields = ['tool', 'command', 'title', 'cwd', 'host'] as const
  for (const field of fields) {
    // A tool call whose command is unknown (the relay did not see its
    // arguments) might be the one a command rule is about: the stricter rule
    // applies rather than a looser one later in the list.
    if (field === 'command' && facts.command === undefined && facts.kind === 'tool-approval') continue
    if (!anyGlob(match[field], facts[field])) return facts[field] === undefined ? `${field} is not known for this ask` : `${field} ${JSON.stringify(facts[field])} matches none of ${match[field]!.map((glob) => JSON.stringify(glob)).join(', ')}`
  }
  if (match.key && (facts.key === undefined || !match.key.includes(facts.key))) return facts.key === undefined ? 'the ask came without an API key' : `key ${facts.key} is not one of ${match.key.join(', ')}`
  return undefined
}

/** The rule an ask falls under: the first that matches, else the defaults (a key's `rules:` list refuses, never skips: key-rules.ts). */
export function matchRule(policy: OperatorPolicy, facts: AskFacts): OperatorRule {
  return policy.rules.find((rule) => mismatchOf(rule.match, facts) === undefined) ?? policy.defaults
}
