import type { AskFacts, OperatorPolicy } from '../policy/operator-policy.js'
import { decidePolicy, type AskStyle, type PolicyDecision } from './ask-policy.js'

/** Decisions kept per policy in force; past it, the oldest are dropped (agents' titles and working directories vary). */
export const POLICY_DECISIONS_KEPT = 256

/**
 * The decisions of each policy in force, by the facts they were made from.
 * A reload puts a new policy object in force, so its asks start afresh and
 * the old decisions go with the old object.
 */
const decisionsOf = new WeakMap<OperatorPolicy, Map<string, PolicyDecision>>()

/**
 * `decidePolicy`, remembered: the same facts (kind, API key, title, working
 * directory, host, tool, command), channel and style under the same policy
 * always get the same rule, target and policy, so an agent's next ask looks
 * its decision up instead of matching every rule again (a command's shell
 * parse, a glob compiled per rule). A request with its own `policy` is
 * decided each time; so is one the policy refuses (nothing is kept for it,
 * and the refusal is thrown again). The decision's policy is frozen: every
 * ask it is decided for shares it, and nothing may change it.
 */
export function decidePolicyOnce(operator: OperatorPolicy, facts: AskFacts, request: { policy?: unknown; channel?: string }, style: AskStyle): PolicyDecision {
  if (request.policy !== undefined) return decidePolicy(operator, facts, request, style)
  let decisions = decisionsOf.get(operator)
  if (!decisions) decisionsOf.set(operator, (decisions = new Map()))
  const key = JSON.stringify([style, request.channel, facts.kind, facts.key, facts.host, facts.tool, facts.command, facts.title, facts.cwd])
  const known = decisions.get(key)
  if (known) return known
  const decision = decidePolicy(operator, facts, request, style)
  if (decision.policy) deepFreeze(decision.policy)
  if (decisions.size >= POLICY_DECISIONS_KEPT) decisions.delete(decisions.keys().next().value!)
  decisions.set(key, Object.freeze(decision))
  return decision
}

function deepFreeze(value: object): void {
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) deepFreeze(inner as object)
  Object.freeze(value)
}
