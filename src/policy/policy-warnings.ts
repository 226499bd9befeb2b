import type { OperatorPolicy, OperatorRule } from './operator-policy.js'

/**
 * What a valid policy may still get wrong, for `policy check` and the
 * service's log at start and on reload. Today one thing: a rule looser than
 * the defaults that an ask reaches through its `title` alone. The agent
 * writes its title, so any agent can choose one that matches (issue 40: a
 * title written to match a looser rule routed a plan to it, and one person
 * approved it alone). A title rule that tightens is harmless (an agent that
 * avoids it gets the defaults the operator wrote), so title matching itself
 * stays; decision 0062 says why this warns rather than refuses.
 */
export function policyWarnings(policy: OperatorPolicy): string[] {
  const warnings: string[] = []
  for (const rule of policy.rules) {
    if (!reachedByTitleAlone(rule)) continue
    const looser = looserThan(rule, policy.defaults)
    if (looser === undefined) continue
    warnings.push(`rule "${rule.name}" is matched by the agent's title alone, and ${looser}: any agent can reach it by choosing a title. Match it on key, host or cwd too, or make it no looser than the defaults`)
  }
  return warnings
}

/** Matched on the title and on nothing an agent cannot write itself (kind and tool are the agent's too). */
function reachedByTitleAlone(rule: OperatorRule): boolean {
  const { title, key, host, cwd, command } = rule.match
  return title !== undefined && key === undefined && host === undefined && cwd === undefined && command === undefined
}

/** How `rule` gives less than `base`, or undefined when it gives no less. */
export function looserThan(rule: OperatorRule, base: OperatorRule): string | undefined {
  if (rule.approvals < base.approvals) return `it needs ${rule.approvals} approval(s) where the defaults need ${base.approvals}`
  const wider = (ours: string[], theirs: string[]) => theirs.length > 0 && (ours.length === 0 || ours.some((id) => !theirs.includes(id)))
  if (wider(rule.approvers, base.approvers)) return `its approvers (${rule.approvers.join(', ') || 'whoever may answer'}) go beyond the defaults' (${base.approvers.join(', ')})`
  if (wider(rule.answerers, base.answerers)) return `its answerers (${rule.answerers.join(', ') || 'anyone who sees the card'}) go beyond the defaults' (${base.answerers.join(', ')})`
  if (rule.channels === '*' && base.channels !== '*') return 'it lets a request pick any channel'
  return undefined
}
