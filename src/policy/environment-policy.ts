import { createHash } from 'node:crypto'
import { DEFAULT_LIMITS, type ApiKeyEntry, type AskLimits, type OperatorPolicy, type OperatorRule } from './operator-policy.js'

/** The settings the environment variables (or library options) give: the short form of a one-rule policy. */
export interface EnvironmentPolicyInput {
  channel?: string
  allowedUsers?: string[]
  allowedUserGroups?: string[]
  approvals?: number
  approvers?: string[]
  mention?: string
  remindAfterMs?: number
  escalateTo?: string
  escalateAfterMs?: number
  keys?: ApiKeyEntry[]
  limits?: Partial<AskLimits>
}

/** The name of the one rule the environment variables make. */
export const ENVIRONMENT_RULE = 'environment'

/** A short, stable hash of what a policy says (not of its secrets' order or the file's comments). */
export function policyVersion(policy: Omit<OperatorPolicy, 'version' | 'source'>): string {
  return createHash('sha256').update(JSON.stringify(policy)).digest('hex').slice(0, 12)
}

/**
 * The environment variables as a policy: one rule (the defaults) for every
 * ask, any channel the bot can post in, as before there was a policy file.
 */
export function policyFromEnvironment(input: EnvironmentPolicyInput): OperatorPolicy {
  const defaults: OperatorRule = {
    name: ENVIRONMENT_RULE,
    match: {},
    channels: '*',
    answerers: [...(input.allowedUsers ?? []), ...(input.allowedUserGroups ?? [])],
    approvers: [...(input.approvers ?? [])],
    approvals: input.approvals ?? 1,
    mention: input.mention ? [input.mention] : [],
  }
  if (input.channel !== undefined) defaults.channel = input.channel
  if (input.remindAfterMs !== undefined) defaults.remindAfterMs = input.remindAfterMs
  if (input.escalateTo !== undefined && input.escalateAfterMs !== undefined) {
    defaults.escalateTo = input.escalateTo
    defaults.escalateAfterMs = input.escalateAfterMs
  }
  const body = { defaults, rules: [], keys: input.keys ?? [], limits: { ...DEFAULT_LIMITS, ...input.limits } }
  return { source: 'environment', version: policyVersion(body), ...body }
}
