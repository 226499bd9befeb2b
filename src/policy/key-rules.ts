import { UserInteractionError } from '../contract/index.js'
import type { AskFacts, OperatorPolicy, OperatorRule } from './operator-policy.js'

/**
 * A key's `rules:` list says which rules its asks may fall under. It never
 * chooses among the rules: the ask falls under the first rule that matches,
 * as any ask does, and when that rule is not in the key's list the ask is
 * refused. Skipping it instead would let the key reach a looser rule later
 * in the file (issue 40: bob approved teamA's plan alone under `rules:
 * [team-a]` while the earlier `strict-plans` needed two).
 */
export function keyRuleRefusal(policy: OperatorPolicy, facts: AskFacts, rule: OperatorRule): string | undefined {
  if (rule === policy.defaults || facts.key === undefined) return undefined
  const allowed = policy.keys.find((key) => key.name === facts.key)?.rules
  if (allowed === undefined || allowed.includes(rule.name)) return undefined
  return `the ask falls under rule "${rule.name}", which API key ${facts.key} may not use (its rules: ${allowed.join(', ')}); a key's list never skips an earlier rule. Ask the operator to add "${rule.name}" to the key's rules, or send this ask with another key`
}

/** Throws `POLICY_FORBIDDEN` when the key may not use the rule its ask falls under. */
export function checkKeyRules(policy: OperatorPolicy, facts: AskFacts, rule: OperatorRule): void {
  const refusal = keyRuleRefusal(policy, facts, rule)
  if (refusal !== undefined) throw new UserInteractionError('POLICY_FORBIDDEN', refusal)
}
