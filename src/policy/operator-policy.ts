/**
 * The operator's approval rules, as the bridge applies them: one policy with
 * defaults and ordered rules, from the policy file (`DSH_SLACK_POLICY`) or,
 * in its short form, from the environment variables. Requests may only
 * tighten what the matching rule gives (tighten.ts).
 */
import type { CommandPattern } from './command/command-pattern.js'

/** What an ask is, for matching: the kinds a rule's `match.kind` names. */
export type AskKind = 'question' | 'plan-review' | 'tool-approval'

export const ASK_KINDS = ['question', 'plan-review', 'tool-approval'] as const satisfies readonly AskKind[]

/** What a rule matches on. Every field given must match; an absent field matches anything. */
export interface RuleMatch {
  kind?: AskKind[]
  /** Tool-name globs (tool approvals only). */
  tool?: string[]
  /**
   * Command patterns, matched against each simple command of a tool call's
   * `command` argument (e.g. bash's) once parsed and normalised: a glob, or
   * a command in terms of program, subcommand, flags and arguments.
   */
  command?: CommandPattern[]
  /** Agent-title globs, when the agent gave a title. */
  title?: string[]
  /** Working-directory globs, when the agent's cwd is known. */
  cwd?: string[]
  /** Harness host URL globs (relayed asks). */
  host?: string[]
  /** API key names (asks through the HTTP API). */
  key?: string[]
}

/** What one rule (or the defaults) gives an ask. Lists hold user (U…/W…) and user-group (S…) ids. */
export interface OperatorRule {
  /** The rule's name, as audit events, errors and `policy explain` show it. */
  name: string
  match: RuleMatch
  /** Where its asks go when the request names no channel; absent: the defaults' channel. */
  channel?: string
  /** Other channels a request may pick ('*': any the bot can post in). */
  channels: string[] | '*'
  /** Who may answer; empty: anyone who can see the message. */
  answerers: string[]
  /** Who may approve and veto plan reviews and tool approvals; empty: the answerers. */
  approvers: string[]
  /** Distinct approvals a plan review or tool approval needs (1–10). */
  approvals: number
  /** Who is notified of a new question and may be mentioned by a reminder. */
  mention: string[]
  remindAfterMs?: number
  escalateTo?: string
  escalateAfterMs?: number
}

/** A named API key: what it may do. Secrets are kept only as SHA-256 digests. */
export interface ApiKeyEntry {
  name: string
  /** Hex SHA-256 digests of the valid secrets (two during a rotation). */
  secretSha256: string[]
  /** Channels asks with this key may use (besides the rule's own); absent: whatever the rule allows. */
  channels?: string[]
  /** Rules this key's asks may fall under (by name); absent: any. Other rules are skipped for it. */
  rules?: string[]
  /**
   * What the key may see and do beyond its own asks (absent: only its own).
   * `read: 'all'` lists, reads, waits on and reads the events of every ask
   * (an audit job); `withdraw: 'all'` withdraws any ask (an admin key).
   */
  access?: KeyAccess
}

/** How far a key reaches: its own asks, or every ask. */
export type KeyReach = 'own' | 'all'

/** What a key may read and withdraw (docs/security.md). */
export interface KeyAccess {
  read: KeyReach
  withdraw: KeyReach
}

/** What a key reaches when the operator said nothing: its own asks only. */
export const OWN_ASKS: KeyAccess = { read: 'own', withdraw: 'own' }

/** The one-key form (`DSH_SLACK_API_KEY`) and a service without keys: every ask. */
export const EVERY_ASK: KeyAccess = { read: 'all', withdraw: 'all' }

/** Pending-ask caps (429 beyond them). */
export interface AskLimits {
  /** Pending asks in total. */
  pending: number
  /** Pending asks per API key. */
  pendingPerKey: number
}

export const DEFAULT_LIMITS: AskLimits = { pending: 1000, pendingPerKey: 200 }

export interface OperatorPolicy {
  /** Where it came from: the file's path, or 'environment'. */
  source: string
  /** A short hash of the policy's content: `/healthz` and `policy explain` show it. */
  version: string
  defaults: OperatorRule
  rules: OperatorRule[]
  keys: ApiKeyEntry[]
  limits: AskLimits
}

/** What is known about an ask when it is matched. */
export interface AskFacts {
  kind: AskKind
  tool?: string
  command?: string
  title?: string
  cwd?: string
  host?: string
  key?: string
}

/** Every id the operator names in a rule: the only ones a reminder or escalation may mention. */
export function namedIds(rule: OperatorRule): Set<string> {
  return new Set([...rule.answerers, ...rule.approvers, ...rule.mention, ...(rule.escalateTo ? [rule.escalateTo] : [])])
}
