import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { z } from 'zod'
import { ConfigError } from './config-error.js'
import { hostAccessSecrets } from './host-secrets.js'
import { parseDuration, timeoutProblem } from './duration.js'

export type Locale = 'en' | 'zh-CN'

/**
 * Everything dsh-slack is configured with. The library's options, the
 * environment variables and the CLI flags all end up here.
 */
export interface Config {
  /** Bot token (`xoxb-…`). Absent: run against the built-in local Slack stand-in. */
  botToken?: string
  /** App-level token (`xapp-…`): Socket Mode. Absent: HTTP mode. */
  appToken?: string
  /** HTTP mode: verifies every request from Slack. */
  signingSecret?: string
  /** Where questions go: a channel id (C…/G…) or a user id (U…/W…, sent as a DM). */
  channel?: string
  /** Web API base URL, e.g. `https://slack.com/api/` (the SDK's default when absent). */
  slackApiUrl?: string
  /** User ids who may answer; empty (with no groups): anyone who can see the message. */
  allowedUsers: string[]
  /** User-group ids whose members may answer. */
  allowedUserGroups: string[]
  /** Who to notify on each new question (user or user-group id). */
  mention?: string
  /** The bridge's own words. */
  locale: Locale
  /** Default expiry of a question in ms; absent: never expires. */
  defaultTimeoutMs?: number
  /** SQLite file for pending questions (`:memory:` keeps them in memory only). */
  statePath: string
  /** Where the HTTP server listens. */
  host: string
  port: number
  /** Without a bot token: the local stand-in's port on 127.0.0.1 (its page and Web API), the same every run so an open page keeps working. */
  sandboxPort: number
  /** Bearer key for `/v1/*` (the one-key form; its name is `default`). */
  apiKey?: string
  /** Named bearer keys (`DSH_SLACK_API_KEYS=name:secret,…`); the secrets are hashed when the policy is built. */
  apiKeys: { name: string; secret: string }[]
  /** The operator's policy file (`DSH_SLACK_POLICY`): it wins over the short-form variables. */
  policyPath?: string
  /**
   * Extra `Host` names the HTTP server answers to (a proxy's public name):
   * `name`, `name:port`, `.example.com` for it and its subdomains, or `*`
   * for any. Loopback names, IP addresses and `host` are always answered.
   */
  allowedHosts?: string[]
  /** Harness web hosts to relay for. */
  hostUrls: string[]
  /**
   * Each host's access secret, by the position of its URL in `hostUrls`;
   * `undefined` for a host without one (DSH_HOST_ACCESS_SECRET).
   */
  hostAccessSecrets: (string | undefined)[]
  /** Default quorum of plan reviews and tool approvals (1: the first approval settles). */
  approvals: number
  /** Who may approve plan reviews and tool approvals (user and user-group ids); empty: the allowed users. */
  approvers: string[]
  /** Remind in the question's thread after this long without an answer. */
  remindAfterMs?: number
  /** Bring an unanswered question to this user or user group… */
  escalateTo?: string
  /** …after this long. */
  escalateAfterMs?: number
  /** The service's log: human lines (`text`, default) or one JSON object per line (`json`). */
  logFormat: 'text' | 'json'
  /** Plan reviews in the agent session's code channel (`DSH_SLACK_CODE_CHANNELS`): `auto` (default) or `off`. */
  codeChannels: 'auto' | 'off'
}

export const DEFAULT_STATE_PATH = '.dsh-slack/state.sqlite'

/** The local stand-in's default port: next to nothing common (3000 is ours, 8080 everyone's), and the one the docs' examples show. */
export const DEFAULT_SANDBOX_PORT = 4100

// Slack ids are upper-case letters and digits after a one-letter type prefix.
const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/
const USER_ID = /^[UW][A-Z0-9]{2,}$/
const USERGROUP_ID = /^S[A-Z0-9]{2,}$/

type Check = (value: string) => string | null

/**
 * A value quoted for an error message. A secret pasted into the wrong variable
 * (a token in SLACK_CHANNEL, a password in a URL) must not reach a log either,
 * so token-like values are withheld and URL credentials masked.
 */
function shown(value: string): string {
  if (/xox[a-z]-|xapp-/i.test(value)) return '(a value that looks like a Slack token, not shown)'
  // Up to the last '@' of the authority-ish run: a password may itself hold '/' or '@'.
  return JSON.stringify(value.replace(/\/\/\S*@/, '//***@'))
}

/** A check that returns the problem, or null. Values of secrets never enter the problem text. */
const checks = {
  botToken: (value) => (value.startsWith('xoxb-') ? null : 'must be a bot token starting with "xoxb-" (OAuth & Permissions → Bot User OAuth Token)'),
  appToken: (value) => (value.startsWith('xapp-') ? null : 'must be an app-level token starting with "xapp-" (Basic Information → App-Level Tokens, scope connections:write)'),
  signingSecret: (value) => (/^[0-9a-f]{16,}$/i.test(value) ? null : 'must be the hex signing secret from Basic Information → App Credentials'),
  channel: (value) =>
    CHANNEL_ID.test(value) || USER_ID.test(value)
      ? null
      : `${shown(value)} is not a channel or user id (expected e.g. C0123ABCDEF, or U0123ABCDEF for a DM; open the channel's details in Slack to copy its id)`,
  slackApiUrl: (value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'http:' || url.protocol === 'https:' ? null : `${shown(value)} is not an http(s) URL (expected e.g. https://slack.com/api/)`
    } catch {
      return `${shown(value)} is not a URL (expected e.g. https://slack.com/api/)`
    }
  },
  userId: (value) => (USER_ID.test(value) ? null : `${shown(value)} is not a user id (expected e.g. U0123ABCDEF)`),
  userGroupId: (value) => (USERGROUP_ID.test(value) ? null : `${shown(value)} is not a user-group id (expected e.g. S0123ABCDEF)`),
  mention: (value) =>
    USER_ID.test(value) || USERGROUP_ID.test(value) ? null : `${shown(value)} is not a user or user-group id (expected e.g. U0123ABCDEF or S0123ABCDEF)`,
  locale: (value) => (value === 'en' || value === 'zh-CN' ? null : `${shown(value)} is not a supported locale (expected en or zh-CN)`),
  approvals: (value) => (/^([1-9]|10)$/.test(value) ? null : `${shown(value)} is not a number of approvals (expected a whole number from 1 to 10, e.g. 2)`),
  userOrGroup: (value) => (USER_ID.test(value) || USERGROUP_ID.test(value) ? null : `${shown(value)} is not a user or user-group id (expected e.g. U0123ABCDEF or S0123ABCDEF)`),
  flag: (value) => (value === 'true' || value === 'false' ? null : `${shown(value)} is not true or false`),
  codeChannels: (value) => (value === 'auto' || value === 'off' ? null : `${shown(value)} is not a code-channel setting (expected auto, the default: plan reviews of an agent session get a canvas in its code channel when Slack allows it, or off)`),
  logFormat: (value) => (value === 'text' || value === 'json' ? null : `${shown(value)} is not a log format (expected text, the default, or json for one JSON object per line)`),
  duration: (value) => {
    const ms = parseDuration(value)
    return ms !== null && ms > 0 ? null : `${shown(value)} is not a duration (expected e.g. 90s, 30m or 2h)`
  },
  timeout: (value) => {
    const ms = parseDuration(value)
    if (ms === null || ms <= 0) return `${shown(value)} is not a duration (expected e.g. 90s, 30m or 2h)`
    const problem = timeoutProblem(ms)
    return problem ? `${shown(value)} ${problem}` : null
  },
  port: (value) => (/^\d+$/.test(value) && Number(value) <= 65535 ? null : `${shown(value)} is not a port (expected a number from 0 to 65535, e.g. 3000)`),
  hostUrl: (value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'http:' || url.protocol === 'https:' ? null : `${shown(value)} is not an http(s) URL (expected e.g. http://127.0.0.1:4000)`
    } catch {
      return `${shown(value)} is not a URL (expected e.g. http://127.0.0.1:4000)`
    }
  },
  allowedHost: (value) =>
    value === '*' || /^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*(:\d{1,5})?$/i.test(value) || /^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(value)
      ? null
      : `${shown(value)} is not a host name (expected e.g. dsh.example.com, dsh.example.com:8443, .example.com for every subdomain, or * for any)`,
  statePath: (value) => statePathProblem(value),
  apiKey: (value) => (value.length >= 16 ? null : 'is too short; use at least 16 random characters (e.g. from `openssl rand -hex 24`)'),
} satisfies Record<string, Check>

const STATE_FORMS = 'expected a postgres:// or postgresql:// URL, :memory:, or a SQLite file in a folder that exists (default .dsh-slack/state.sqlite)'

/**
 * DSH_SLACK_STATE's three forms. Anything else is refused rather than taken
 * as a file name: a misspelt scheme (`postgress://`, `mysql://`) would
 * otherwise become a folder in the project, and a path into a folder that
 * does not exist would quietly create it somewhere unexpected.
 */
export function statePathProblem(value: string): string | null {
  if (value === ':memory:') return null
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value)
      return null
    } catch {
      return `${shown(value)} is not a valid URL (${STATE_FORMS})`
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return `${shown(value)} is neither a postgres:// URL nor a file (${STATE_FORMS})`
  const folder = resolve(dirname(value))
  if (folder === resolve(dirname(DEFAULT_STATE_PATH))) return null
  if (!existsSync(folder)) return `the folder ${shown(dirname(value))} does not exist; create it first (${STATE_FORMS})`
  if (!statSync(folder).isDirectory()) return `${shown(dirname(value))} is not a folder (${STATE_FORMS})`
  return null
}

function required(variable: string, value: string | undefined, check: Check): string | undefined {
  if (value === undefined) return undefined
  const problem = check(value)
  if (problem) throw new ConfigError(variable, problem)
  return value
}

function list(variable: string, value: string | undefined, check: Check): string[] {
  if (value === undefined) return []
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => required(variable, item, check)!)
}

const envSchema = z.record(z.string(), z.string().optional())

/** Treat empty variables as unset: `.env.example` copies leave many blank. */
function read(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

/** An `http://` URL to a host other than this machine: what it sends can be read on the way. */
function plainHttpOffMachine(url: string): boolean {
  const parsed = new URL(url)
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)
}

/** Loopback addresses: the only ones where the HTTP API may run without a key. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '')
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare)
}

/**
 * Reads the configuration from environment variables (ARCHITECTURE.md's
 * fixed table). Throws a `ConfigError` naming the first bad variable.
 * `checkCombination: false` skips the rules across variables: `doctor`
 * reports those as failed checks and goes on checking the rest.
 */
export function configFromEnv(source: NodeJS.ProcessEnv | Record<string, string | undefined>, options: { checkCombination?: boolean } = {}): Config {
  const env = envSchema.parse(source)
  const get = (name: string) => read(env, name)
  const config: Config = {
    allowedUsers: list('SLACK_ALLOWED_USERS', get('SLACK_ALLOWED_USERS'), checks.userId),
    allowedUserGroups: list('SLACK_ALLOWED_USERGROUPS', get('SLACK_ALLOWED_USERGROUPS'), checks.userGroupId),
    locale: (required('DSH_SLACK_LOCALE', get('DSH_SLACK_LOCALE'), checks.locale) ?? 'en') as Locale,
    statePath: required('DSH_SLACK_STATE', get('DSH_SLACK_STATE'), checks.statePath) ?? DEFAULT_STATE_PATH,
    host: get('HOST') ?? '127.0.0.1',
    port: Number(required('PORT', get('PORT'), checks.port) ?? 3000),
    sandboxPort: Number(required('DSH_SLACK_SANDBOX_PORT', get('DSH_SLACK_SANDBOX_PORT'), checks.port) ?? DEFAULT_SANDBOX_PORT),
    hostUrls: list('DSH_HOST_URL', get('DSH_HOST_URL'), checks.hostUrl),
    hostAccessSecrets: [],
    approvals: Number(required('DSH_SLACK_APPROVALS', get('DSH_SLACK_APPROVALS'), checks.approvals) ?? 1),
    approvers: list('DSH_SLACK_APPROVERS', get('DSH_SLACK_APPROVERS'), checks.userOrGroup),
    apiKeys: namedKeys(get('DSH_SLACK_API_KEYS')),
    logFormat: (required('DSH_SLACK_LOG_FORMAT', get('DSH_SLACK_LOG_FORMAT'), checks.logFormat) ?? 'text') as Config['logFormat'],
    codeChannels: (required('DSH_SLACK_CODE_CHANNELS', get('DSH_SLACK_CODE_CHANNELS'), checks.codeChannels) ?? 'auto') as Config['codeChannels'],
  }
  config.hostAccessSecrets = hostAccessSecrets(get('DSH_HOST_ACCESS_SECRET'), config.hostUrls.length)
  const allowPlainHttp = required('DSH_HOST_ALLOW_PLAIN_HTTP', get('DSH_HOST_ALLOW_PLAIN_HTTP'), checks.flag) === 'true'
  if (!allowPlainHttp) {
    const inClear = config.hostUrls.find((url) => plainHttpOffMachine(url))
    if (inClear !== undefined) {
      throw new ConfigError(
        'DSH_HOST_URL',
        `${shown(inClear)} is plain http to another machine: the host's access secret and session cookie would cross the network unencrypted. Use https://, or set DSH_HOST_ALLOW_PLAIN_HTTP=true to accept that (e.g. on a private network you trust)`,
      )
    }
  }
  const allowedHosts = list('DSH_SLACK_ALLOWED_HOSTS', get('DSH_SLACK_ALLOWED_HOSTS'), checks.allowedHost)
  if (allowedHosts.length > 0) config.allowedHosts = allowedHosts
  const optional: [keyof Config, string, Check][] = [
    ['botToken', 'SLACK_BOT_TOKEN', checks.botToken],
    ['appToken', 'SLACK_APP_TOKEN', checks.appToken],
    ['signingSecret', 'SLACK_SIGNING_SECRET', checks.signingSecret],
    ['channel', 'SLACK_CHANNEL', checks.channel],
    ['slackApiUrl', 'SLACK_API_URL', checks.slackApiUrl],
    ['mention', 'DSH_SLACK_MENTION', checks.mention],
    ['apiKey', 'DSH_SLACK_API_KEY', checks.apiKey],
  ]
  for (const [key, variable, check] of optional) {
    const value = required(variable, get(variable), check)
    if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value
  }
  const policyPath = get('DSH_SLACK_POLICY')
  if (policyPath !== undefined) config.policyPath = policyPath
  const timeout = required('DSH_SLACK_TIMEOUT', get('DSH_SLACK_TIMEOUT'), checks.timeout)
  if (timeout !== undefined) config.defaultTimeoutMs = parseDuration(timeout)!
  const remind = required('DSH_SLACK_REMIND_AFTER', get('DSH_SLACK_REMIND_AFTER'), checks.duration)
  if (remind !== undefined) config.remindAfterMs = parseDuration(remind)!
  const escalateTo = required('DSH_SLACK_ESCALATE_TO', get('DSH_SLACK_ESCALATE_TO'), checks.userOrGroup)
  const escalateAfter = required('DSH_SLACK_ESCALATE_AFTER', get('DSH_SLACK_ESCALATE_AFTER'), checks.duration)
  if (escalateTo !== undefined) config.escalateTo = escalateTo
  if (escalateAfter !== undefined) config.escalateAfterMs = parseDuration(escalateAfter)!
  if (options.checkCombination !== false) checkCombination(config)
  return config
}

/** Rules that span variables; the same ones apply to library options. */
export function checkCombination(config: Config): void {
  if (config.appToken && !config.botToken) {
    throw new ConfigError('SLACK_BOT_TOKEN', 'is required with SLACK_APP_TOKEN (OAuth & Permissions → Bot User OAuth Token, starts with xoxb-)')
  }
  if (config.botToken && !config.appToken && !config.signingSecret) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET',
      'is required in HTTP mode (no SLACK_APP_TOKEN set): copy it from Basic Information → App Credentials, or set SLACK_APP_TOKEN for Socket Mode',
    )
  }
  if ((config.escalateTo === undefined) !== (config.escalateAfterMs === undefined)) {
    throw config.escalateTo === undefined
      ? new ConfigError('DSH_SLACK_ESCALATE_TO', 'is required with DSH_SLACK_ESCALATE_AFTER: whom to bring an unanswered question to (a user id U… or a user-group id S…)')
      : new ConfigError('DSH_SLACK_ESCALATE_AFTER', 'is required with DSH_SLACK_ESCALATE_TO: how long to wait first (e.g. 1h)')
  }
  if (config.apiKey && config.apiKeys.some((key) => key.name === 'default')) {
    throw new ConfigError('DSH_SLACK_API_KEYS', 'names a key "default", the name DSH_SLACK_API_KEY already has: rename it, or move DSH_SLACK_API_KEY into the list')
  }
  const sameAsOneKey = config.apiKey === undefined ? undefined : config.apiKeys.find((key) => key.secret === config.apiKey)
  if (sameAsOneKey) {
    throw new ConfigError('DSH_SLACK_API_KEYS', `gives key ${JSON.stringify(sameAsOneKey.name)} the secret of DSH_SLACK_API_KEY (the key "default"): each secret belongs to one key; give it its own, or drop DSH_SLACK_API_KEY`)
  }
  const anyKey = config.apiKey !== undefined || config.apiKeys.length > 0
  // A policy file may hold the keys: the service checks again once it has read it.
  if (config.allowedHosts?.includes('*') && !anyKey && !config.policyPath) {
    throw new ConfigError(
      'DSH_SLACK_ALLOWED_HOSTS',
      'is "*" (any Host name) without an API key: any web page could then reach the API through DNS rebinding. Set DSH_SLACK_API_KEY (or DSH_SLACK_API_KEYS), or list your proxy\'s names instead of "*"',
    )
  }
  if (!isLoopbackHost(config.host) && !anyKey && !config.policyPath) {
    throw new ConfigError(
      'DSH_SLACK_API_KEY',
      `is required when HOST (${config.host}) is not a loopback address: anyone on the network could ask and answer otherwise. ` +
        `Set a key and send it as "Authorization: Bearer <key>", e.g. DSH_SLACK_API_KEY=$(openssl rand -hex 24) HOST=${config.host} npm start; or leave HOST unset to listen on 127.0.0.1 only`,
    )
  }
}

/** `DSH_SLACK_API_KEYS`: `name:secret` pairs, comma-separated; names unique, secrets at least 16 characters. */
function namedKeys(value: string | undefined): { name: string; secret: string }[] {
  const keys: { name: string; secret: string }[] = []
  for (const item of (value ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const colon = item.indexOf(':')
    const name = colon < 0 ? '' : item.slice(0, colon).trim()
    const secret = colon < 0 ? '' : item.slice(colon + 1).trim()
    // The secret never enters the message: only the entry's position and name.
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new ConfigError('DSH_SLACK_API_KEYS', `entry ${keys.length + 1} is not name:secret (a name of letters, digits, ".", "_" or "-", a colon, then the secret)`)
    if (secret.length < 16) throw new ConfigError('DSH_SLACK_API_KEYS', `the secret of key ${JSON.stringify(name)} is too short; use at least 16 random characters (e.g. from \`openssl rand -hex 24\`)`)
    if (keys.some((key) => key.name === name)) throw new ConfigError('DSH_SLACK_API_KEYS', `names key ${JSON.stringify(name)} twice: during a rotation, give the new secret a new name (e.g. ${name}-2) and retire the old one`)
    // One secret, two names: which name a request gets (and the asks it owns) would depend on the order.
    const twin = keys.find((key) => key.secret === secret)
    if (twin) throw new ConfigError('DSH_SLACK_API_KEYS', `gives key ${JSON.stringify(name)} the secret of key ${JSON.stringify(twin.name)}: each secret belongs to one key; give each key its own (e.g. from \`openssl rand -hex 24\`)`)
    keys.push({ name, secret })
  }
  return keys
}

/** The checks of single values, for library options and CLI flags. */
export const valueChecks = checks
