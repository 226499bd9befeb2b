import { isDeepStrictEqual } from 'node:util'
import { globToRegExp } from './glob.js'
import { atLeastAsStrict } from './strictness.js'
import { OWN_ASKS, type ApiKeyEntry, type AskLimits, type KeyReach, type OperatorPolicy, type OperatorRule, type RuleMatch } from './operator-policy.js'

/**
 * Where a new policy gives more than the one in force, field by field, for
 * the reload that may only tighten (decision 0088). Each check answers for
 * one field: how `after` is looser than `before`, or undefined when it gives
 * no more. The tables are typed over every field of their object, so a new
 * field (a rule's `grants`, say) does not compile until it says how it
 * loosens; a field no table knows (from a newer file format, a field added
 * without its check) is compared whole, and any difference counts as looser.
 * "Looser" is judged without knowing people: a user group and its members
 * are different ids, so a group swapped for its own members is looser too.
 */
type Check<T> = (before: T, after: T) => string | undefined

/** A table of checks, one for each field of T but those named in `Skip`. */
type Checks<T, Skip extends keyof T = never> = { [K in Exclude<keyof T, Skip>]-?: Check<T> }

/** Who decides an approval under a rule: its approvers, else its answerers; empty means anyone. */
function deciders(rule: OperatorRule): string[] {
  return rule.approvers.length > 0 ? rule.approvers : rule.answerers
}

/** A list of people where empty means anyone: looser when it reaches anyone new. */
function widenedPeople(before: string[], after: string[], anyone: string): string | undefined {
  if (before.length === 0) return undefined
  if (after.length === 0) return `${anyone} (was ${before.join(', ')})`
  const added = after.filter((id) => !before.includes(id))
  return added.length > 0 ? `adds ${added.join(', ')}` : undefined
}

/** A delay where absent means never: looser when it comes later, or no longer at all. */
function later(before: number | undefined, after: number | undefined, what: string): string | undefined {
  if (before === undefined) return undefined
  if (after === undefined) return `no ${what} (was after ${before} ms)`
  return after > before ? `${what} after ${after} ms (was ${before} ms)` : undefined
}

/** What one rule (or the defaults) gives, beyond which asks it matches. */
const RULE_CHECKS: Checks<OperatorRule, 'name' | 'match'> = {
  approvals: (before, after) => (after.approvals < before.approvals ? `approvals ${before.approvals} → ${after.approvals}` : undefined),
  answerers: (before, after) => prefixed('answerers', widenedPeople(before.answerers, after.answerers, 'anyone who sees the card')),
  approvers: (before, after) => (before.approvers.length === 0 && after.approvers.length === 0 ? undefined : prefixed('approvers', widenedPeople(deciders(before), deciders(after), 'anyone who sees the card'))),
  mention: (before, after) => {
    // A named id may be mentioned by a reminder and chosen by a request as its escalation target.
    const added = after.mention.filter((id) => !before.mention.includes(id))
    return added.length > 0 ? `mention adds ${added.join(', ')} (a request may bring them in)` : undefined
  },
  channel: (before, after) => (before.channel !== after.channel ? `its asks go to ${after.channel ?? 'the fallback channel'} instead of ${before.channel ?? 'the fallback channel'} (other people may see them)` : undefined),
  channels: (before, after) => {
    if (before.channels === '*') return undefined
    if (after.channels === '*') return 'a request may pick any channel'
    const added = after.channels.filter((channel) => !(before.channels as string[]).includes(channel))
    return added.length > 0 ? `a request may pick ${added.join(', ')} too` : undefined
  },
  remindAfterMs: (before, after) => later(before.remindAfterMs, after.remindAfterMs, 'reminder'),
  escalateTo: (before, after) => (before.escalateTo !== undefined && after.escalateTo !== before.escalateTo ? `escalates to ${after.escalateTo ?? 'nobody'} instead of ${before.escalateTo}` : undefined),
  escalateAfterMs: (before, after) => later(before.escalateAfterMs, after.escalateAfterMs, 'escalation'),
}

const REACH: Record<KeyReach, number> = { own: 0, all: 1 }

/** What one API key may do, beyond its name. */
const KEY_CHECKS: Checks<ApiKeyEntry, 'name'> = {
  secretSha256: (before, after) => (after.secretSha256.some((hash) => !before.secretSha256.includes(hash)) ? 'accepts a new secret' : undefined),
  channels: (before, after) => {
    // A key's list both restricts a request's channel and adds to the rule's (tighten.ts, checkChannel).
    if (after.channels === undefined) return before.channels === undefined ? undefined : `may ask in any channel its rule allows (was ${before.channels.join(', ') || 'its rule\'s own channel'})`
    const added = after.channels.filter((channel) => !(before.channels ?? []).includes(channel))
    return added.length > 0 ? `may ask in ${added.join(', ')} too` : undefined
  },
  rules: (before, after) => {
    if (before.rules === undefined) return undefined
    if (after.rules === undefined) return `may fall under any rule (was ${before.rules.join(', ')})`
    const added = after.rules.filter((name) => !before.rules!.includes(name))
    return added.length > 0 ? `may fall under ${added.map((name) => `"${name}"`).join(', ')} too` : undefined
  },
  access: (before, after) => {
    const was = before.access ?? OWN_ASKS
    const now = after.access ?? OWN_ASKS
    const wider = (['read', 'withdraw'] as const).filter((what) => REACH[now[what]] > REACH[was[what]])
    return wider.length > 0 ? wider.map((what) => `may ${what} every key's asks`).join(' and ') : undefined
  },
}

const LIMIT_CHECKS: Checks<AskLimits> = {
  pending: (before, after) => (after.pending > before.pending ? `limits.pending ${before.pending} → ${after.pending}` : undefined),
  pendingPerKey: (before, after) => (after.pendingPerKey > before.pendingPerKey ? `limits.pendingPerKey ${before.pendingPerKey} → ${after.pendingPerKey}` : undefined),
}

/** The policy's parts; `source` and `version` say where it came from and what it hashes to, not what it allows. */
const POLICY_CHECKS: { [K in Exclude<keyof OperatorPolicy, 'source' | 'version'>]-?: (before: OperatorPolicy, after: OperatorPolicy) => string[] } = {
  defaults: (before, after) => settingsLoosenings(before.defaults, after.defaults).map((problem) => `defaults: ${problem}`),
  rules: ruleListLoosenings,
  keys: keyLoosenings,
  limits: (before, after) => checked(LIMIT_CHECKS, before.limits, after.limits, []),
}

function prefixed(field: string, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `${field} ${problem}`
}

/**
 * Runs a table over two objects, and compares whole every field the table
 * does not know: a difference there is reported as looser, since nothing
 * says it is not.
 */
function checked<T extends object>(checks: Partial<Record<keyof T, Check<T>>>, before: T, after: T, skip: readonly PropertyKey[]): string[] {
  const problems: string[] = []
  for (const check of Object.values(checks) as Check<T>[]) {
    const problem = check(before, after)
    if (problem !== undefined) problems.push(problem)
  }
  const fields = new Set([...Object.keys(before), ...Object.keys(after)])
  for (const field of fields) {
    if (field in checks || skip.includes(field)) continue
    if (!isDeepStrictEqual((before as Record<string, unknown>)[field], (after as Record<string, unknown>)[field])) problems.push(`${field} changed (a reload cannot tell whether that loosens)`)
  }
  return problems
}

function settingsLoosenings(before: OperatorRule, after: OperatorRule): string[] {
  return checked(RULE_CHECKS, before, after, ['name', 'match'])
}

/** Whether some value could satisfy both lists of a match field (absent: anything). Literal values are tested against the other's globs; two lists of wildcards may always meet. */
function listsMayMeet(a: string[] | undefined, b: string[] | undefined): boolean {
  if (a === undefined || b === undefined) return true
  const literal = (list: string[]) => list.every((value) => !/[*?]/.test(value))
  if (literal(a)) return a.some((value) => b.some((glob) => globToRegExp(glob).test(value)))
  if (literal(b)) return b.some((value) => a.some((glob) => globToRegExp(glob).test(value)))
  return true
}

/**
 * Whether one ask could match both rules. Only what can be told for sure
 * from the file rules an overlap out (kinds, keys, tools, titles, folders
 * or hosts that cannot be the same); command patterns may always meet.
 */
function mayOverlap(a: RuleMatch, b: RuleMatch): boolean {
  return listsMayMeet(a.kind, b.kind) && listsMayMeet(a.key, b.key) && listsMayMeet(a.tool, b.tool) && listsMayMeet(a.title, b.title) && listsMayMeet(a.cwd, b.cwd) && listsMayMeet(a.host, b.host)
}

/**
 * The rules, in order. A rule gone, a rule's match changed, two rules that
 * swap places: each may send an ask to a looser rule, so each counts. A
 * kept rule is compared with itself; a new rule takes asks from the kept
 * rules after it and from the defaults (the rules before it still match
 * first), so it must give no more than any of those it could overlap.
 */
function ruleListLoosenings(before: OperatorPolicy, after: OperatorPolicy): string[] {
  const problems: string[] = []
  const kept = new Map(before.rules.filter((rule) => after.rules.some((other) => other.name === rule.name)).map((rule) => [rule.name, rule]))
  for (const rule of before.rules) if (!kept.has(rule.name)) problems.push(`rule "${rule.name}" is gone`)
  const keptOrder = after.rules.filter((rule) => kept.has(rule.name)).map((rule) => rule.name)
  const wasOrder = [...kept.keys()]
  const moved = keptOrder.findIndex((name, index) => name !== wasOrder[index])
  if (moved >= 0) problems.push(`rule "${keptOrder[moved]}" now comes before "${wasOrder[moved]}"`)
  problems.push(...strictnessOrderLoosenings(before, after, kept))
  after.rules.forEach((rule, index) => {
    const was = kept.get(rule.name)
    if (was) {
      if (!isDeepStrictEqual(was.match, rule.match)) problems.push(`rule "${rule.name}" matches other asks than before`)
      problems.push(...settingsLoosenings(was, rule).map((problem) => `rule "${rule.name}": ${problem}`))
      return
    }
    const shadowed = [...after.rules.slice(index + 1).flatMap((later) => kept.get(later.name) ?? []), before.defaults]
    for (const other of shadowed) {
      if (other !== before.defaults && !mayOverlap(rule.match, other.match)) continue
      const from = other === before.defaults ? 'the defaults' : `rule "${other.name}"`
      problems.push(...settingsLoosenings(other, rule).map((problem) => `new rule "${rule.name}" takes asks from ${from}, and ${problem}`))
    }
  })
  return problems
}

/**
 * A command whose parts fall under several rules gets the strictest of them
 * (strictness.ts); between two rules neither of which asks at least as much
 * as the other, the earlier wins. So two rules that each tighten can still
 * give a command less: when the stricter of a pair no longer is, and the
 * other comes first, the command falls under that other one now. Pairs no
 * ask can meet in are left out.
 */
function strictnessOrderLoosenings(before: OperatorPolicy, after: OperatorPolicy, kept: Map<string, OperatorRule>): string[] {
  const now = new Map(after.rules.map((rule) => [rule.name, rule]))
  // Each rule as it was and as it is, the defaults last: they lose every tie to a named rule.
  const both = [...[...kept.values()].map((rule) => ({ was: rule, is: now.get(rule.name)!, rank: after.rules.indexOf(now.get(rule.name)!) })), { was: before.defaults, is: after.defaults, rank: Number.POSITIVE_INFINITY }]
  const problems: string[] = []
  for (const strict of both) {
    for (const other of both) {
      if (other === strict || other.rank > strict.rank || !mayOverlap(strict.was.match, other.was.match)) continue
      const wasStricter = atLeastAsStrict(strict.was, other.was) && !atLeastAsStrict(other.was, strict.was)
      const incomparable = !atLeastAsStrict(strict.is, other.is) && !atLeastAsStrict(other.is, strict.is)
      if (wasStricter && incomparable) problems.push(`rule "${other.is.name}" no longer asks less than ${strict.was === before.defaults ? 'the defaults' : `rule "${strict.is.name}"`}, nor more: a command under both now falls under "${other.is.name}", the earlier`)
    }
  }
  return problems
}

/** The keys: one added, or one that may do more. A key gone is a revocation, never looser. */
function keyLoosenings(before: OperatorPolicy, after: OperatorPolicy): string[] {
  const problems: string[] = []
  for (const key of after.keys) {
    const was = before.keys.find((other) => other.name === key.name)
    if (!was) problems.push(`key "${key.name}" is new`)
    else problems.push(...checked(KEY_CHECKS, was, key, ['name']).map((problem) => `key "${key.name}" ${problem}`))
  }
  return problems
}

/**
 * Every way `after` gives more than `before`: fewer approvals, more people
 * who may answer or approve, a rule gone or moved, a key added or widened,
 * later reminders, higher limits, and any change nothing here knows how to
 * judge. Empty when `after` is at least as strict everywhere.
 */
export function policyLoosenings(before: OperatorPolicy, after: OperatorPolicy): string[] {
  const problems: string[] = []
  for (const check of Object.values(POLICY_CHECKS)) problems.push(...check(before, after))
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (field in POLICY_CHECKS || field === 'source' || field === 'version') continue
    if (!isDeepStrictEqual((before as unknown as Record<string, unknown>)[field], (after as unknown as Record<string, unknown>)[field])) problems.push(`${field} changed (a reload cannot tell whether that loosens)`)
  }
  return problems
}
