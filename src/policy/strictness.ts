import type { OperatorPolicy, OperatorRule } from './operator-policy.js'

/** Who decides an approval under a rule: its approvers, else its answerers; empty: anyone. */
function deciders(rule: OperatorRule): string[] {
  return rule.approvers.length > 0 ? rule.approvers : rule.answerers
}

/**
 * Whether `a` provably asks at least as much as `b`: at least as many
 * approvals, from the same people or fewer (ids compared as written: a
 * group and its members are not known to be related).
 */
export function atLeastAsStrict(a: OperatorRule, b: OperatorRule): boolean {
  if (a.approvals < b.approvals) return false
  const mine = deciders(a)
  const theirs = deciders(b)
  if (theirs.length === 0) return true
  return mine.length > 0 && mine.every((id) => theirs.includes(id))
}

/**
 * The strictest of the rules that the parts of one command fall under.
 * A rule that provably asks at least as much as every other wins. When
 * none does (their people differ), an operator's named rule wins over the
 * defaults, and an earlier rule over a later one: a rule written for a
 * command is what the operator meant for it.
 */
export function strictestRule(policy: OperatorPolicy, rules: OperatorRule[]): OperatorRule {
  const distinct = [...new Set(rules)]
  const rank = (rule: OperatorRule) => (rule === policy.defaults ? Number.POSITIVE_INFINITY : policy.rules.indexOf(rule))
  const byRank = (a: OperatorRule, b: OperatorRule) => rank(a) - rank(b)
  const dominant = distinct.filter((rule) => distinct.every((other) => atLeastAsStrict(rule, other)))
  if (dominant.length > 0) return dominant.sort(byRank)[0]!
  const maximal = distinct.filter((rule) => !distinct.some((other) => other !== rule && atLeastAsStrict(other, rule) && !atLeastAsStrict(rule, other)))
  return maximal.sort(byRank)[0]!
}
