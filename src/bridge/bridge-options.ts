import type { Locale } from '../../blocks/view.js'
import { ConfigError } from '../config/config-error.js'
import { valueChecks, type Config } from '../config/config.js'
import { parseDuration, timeoutProblem } from '../config/duration.js'
import { apiBaseUrl } from '../slack/api-base-url.js'
import { MAX_APPROVALS } from './ask-policy.js'
import { policyFromEnvironment, type EnvironmentPolicyInput } from '../policy/environment-policy.js'
import type { OperatorPolicy } from '../policy/operator-policy.js'
import { PolicyHolder } from '../policy/policy-holder.js'
import { loadPolicyFile, PolicyFileError } from '../policy/policy-file.js'
import type { SlackBridgeOptions } from './types.js'

/** The options after checking: every value well-formed, defaults applied. */
export type ResolvedOptions = Pick<Config, 'appToken' | 'signingSecret' | 'channel' | 'slackApiUrl' | 'allowedUsers' | 'allowedUserGroups' | 'mention' | 'locale' | 'defaultTimeoutMs'> & {
  botToken: string
  owner: 'service' | 'library'
  /** The operator's policy: the `policy` option, else the short form the other options make. */
  policy: PolicyHolder
}

function check(name: string, value: string | undefined, problemOf: (value: string) => string | null): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw new ConfigError(name, 'must be a string')
  const problem = problemOf(value)
  if (problem) throw new ConfigError(name, problem)
  return value
}

/**
 * Checks library options with the same rules as the environment variables,
 * so a typo fails at `createSlackBridge` with the option's name, not later
 * as a confusing Slack error.
 */
export function resolveOptions(options: SlackBridgeOptions): ResolvedOptions {
  const botToken = check('botToken', options.botToken, valueChecks.botToken)
  if (!botToken) throw new ConfigError('botToken', 'is required (the Bot User OAuth Token, xoxb-…)')
  const resolved: ResolvedOptions = {
    botToken,
    allowedUsers: (options.allowedUsers ?? []).map((user) => check('allowedUsers', user, valueChecks.userId)!),
    allowedUserGroups: (options.allowedUserGroups ?? []).map((group) => check('allowedUserGroups', group, valueChecks.userGroupId)!),
    locale: (check('locale', options.locale, valueChecks.locale) ?? 'en') as Locale,
    owner: options.owner ?? 'library',
    policy: new PolicyHolder(policyFromEnvironment({})),
  }
  const appToken = check('appToken', options.appToken, valueChecks.appToken)
  if (appToken) resolved.appToken = appToken
  // Signing secrets are checked by Bolt; ours only has to be present in HTTP mode.
  if (options.signingSecret) resolved.signingSecret = options.signingSecret
  if (!appToken && !resolved.signingSecret) throw new ConfigError('signingSecret', 'is required in HTTP mode (no appToken): copy it from Basic Information → App Credentials, or pass appToken for Socket Mode')
  const channel = check('channel', options.channel, valueChecks.channel)
  if (channel) resolved.channel = channel
  const slackApiUrl = check('slackApiUrl', options.slackApiUrl, valueChecks.slackApiUrl)
  if (slackApiUrl) resolved.slackApiUrl = apiBaseUrl(slackApiUrl)
  const mention = check('mention', options.mention, valueChecks.mention)
  if (mention) resolved.mention = mention
  if (options.timeout !== undefined) {
    const ms = typeof options.timeout === 'number' ? options.timeout : parseDuration(options.timeout)
    if (ms === null || !(ms > 0)) throw new ConfigError('timeout', `${JSON.stringify(options.timeout)} is not a duration (expected milliseconds, or text like 90s, 30m or 2h)`)
    const problem = timeoutProblem(ms)
    if (problem) throw new ConfigError('timeout', `${JSON.stringify(options.timeout)} ${problem}`)
    resolved.defaultTimeoutMs = ms
  }
  resolved.policy = policyOf(options, resolved)
  return resolved
}

/** A policy passed in wins over the short-form options (approvals, approvers, allowedUsers, …). */
function policyOf(options: SlackBridgeOptions, resolved: ResolvedOptions): PolicyHolder {
  if (options.policy instanceof PolicyHolder) return options.policy
  if (typeof options.policy === 'string') {
    try {
      return new PolicyHolder(loadPolicyFile(options.policy))
    } catch (error) {
      if (error instanceof PolicyFileError) throw new ConfigError('policy', `is not a usable policy: ${error.message}`)
      throw error
    }
  }
  if (options.policy !== undefined) return new PolicyHolder(options.policy)
  const defaults = resolvePolicyDefaults(options)
  const input: EnvironmentPolicyInput = { ...defaults, allowedUsers: resolved.allowedUsers, allowedUserGroups: resolved.allowedUserGroups }
  if (resolved.channel) input.channel = resolved.channel
  if (resolved.mention) input.mention = resolved.mention
  return new PolicyHolder(policyFromEnvironment(input))
}

function durationOption(name: string, value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined
  const ms = typeof value === 'number' ? value : parseDuration(value)
  if (ms === null || !(ms > 0)) throw new ConfigError(name, `${JSON.stringify(value)} is not a duration (expected milliseconds, or text like 90s, 30m or 2h)`)
  return ms
}

/** The team defaults (quorum, approvers, reminder, escalation), checked like the environment variables. */
function resolvePolicyDefaults(options: SlackBridgeOptions): EnvironmentPolicyInput & { approvals: number; approvers: string[] } {
  const approvals = options.approvals ?? 1
  if (!Number.isInteger(approvals) || approvals < 1 || approvals > MAX_APPROVALS) throw new ConfigError('approvals', `${JSON.stringify(approvals)} is not a number of approvals (expected a whole number from 1 to ${MAX_APPROVALS})`)
  const defaults: EnvironmentPolicyInput & { approvals: number; approvers: string[] } = { approvals, approvers: (options.approvers ?? []).map((id) => check('approvers', id, valueChecks.userOrGroup)!) }
  const remindAfterMs = durationOption('remindAfter', options.remindAfter)
  if (remindAfterMs !== undefined) defaults.remindAfterMs = remindAfterMs
  const escalateTo = check('escalateTo', options.escalateTo, valueChecks.userOrGroup)
  const escalateAfterMs = durationOption('escalateAfter', options.escalateAfter)
  if ((escalateTo === undefined) !== (escalateAfterMs === undefined)) {
    throw escalateTo === undefined ? new ConfigError('escalateTo', 'is required with escalateAfter (a user id U… or a user-group id S…)') : new ConfigError('escalateAfter', 'is required with escalateTo (how long to wait first, e.g. 1h)')
  }
  if (escalateTo !== undefined && escalateAfterMs !== undefined) {
    defaults.escalateTo = escalateTo
    defaults.escalateAfterMs = escalateAfterMs
  }
  return defaults
}
