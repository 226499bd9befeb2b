import type { Config } from '../../config/config.js'
import { isLoopbackHost } from '../../config/config.js'
import { SlackCallError } from '../../slack/slack-call-error.js'
import { adviceFor } from '../../slack/slack-error-advice.js'
import type { DoctorSlack } from './doctor-port.js'
import { CODE_CHANNEL_SCOPES, MANIFEST_BOT_SCOPES, THREAD_REPLY_SCOPES } from './manifest-scopes.js'
import { probeApi, type ApiProbe } from './api-probe.js'

/** One line of `doctor`'s report. */
export interface CheckResult {
  ok: boolean
  /** What was checked: `token`, `scopes`, `channel`, `Socket Mode`, … */
  name: string
  /** What was found. */
  detail: string
  /** For a failed check: exactly what to change. */
  fix?: string
  /**
   * A feature that falls back when missing (thread replies, code channels):
   * reported with its fix, but everything that worked before still works,
   * so it does not fail the run (an app installed before the feature passes).
   */
  optional?: true
}

/** What differs when doctor checks a harness profile's plugin rather than the service. */
export interface DoctorCheckOptions {
  /** Check the HTTP API's exposure (the service's; false for `--harness`). */
  httpApi?: boolean
  /** The setting that turns code channels off, as the person writes it (default `DSH_SLACK_CODE_CHANNELS=off`; the plugin's own for `--harness`). */
  codeChannelsOffBy?: string
  /** What answers where the service would listen (default: an HTTP probe of its /healthz). */
  probeApi?: (host: string, port: number) => Promise<ApiProbe>
}

const fail = (name: string, detail: string, fix: string): CheckResult => ({ ok: false, name, detail, fix })
const pass = (name: string, detail: string): CheckResult => ({ ok: true, name, detail })
const missingFeature = (name: string, detail: string, fix: string): CheckResult => ({ ok: false, name, detail, fix, optional: true })

function slackErrorOf(error: unknown): string {
  return error instanceof SlackCallError ? error.slackError : (error as Error).message
}

/**
 * `dsh-slack doctor`'s checks, in the order a person fixes things: the
 * token (nothing else works without it), the scopes, the channel, the
 * connection mode, the HTTP API's exposure (the service's, so not for
 * `--harness`: `httpApi: false`).
 */
export async function runDoctorChecks(config: Config, slack: DoctorSlack | undefined, options: DoctorCheckOptions = {}): Promise<CheckResult[]> {
  if (!config.botToken || !slack) {
    return [
      fail(
        'token',
        'SLACK_BOT_TOKEN is not set: `dsh-slack serve` runs against the local Slack stand-in',
        'to use Slack, create the app from manifest.yml, install it to the workspace and set SLACK_BOT_TOKEN to its Bot User OAuth Token (xoxb-…)',
      ),
    ]
  }
  const results: CheckResult[] = []
  let identity: Awaited<ReturnType<DoctorSlack['authTest']>>
  try {
    identity = await slack.authTest()
  } catch (error) {
    const slackError = slackErrorOf(error)
    const where = config.slackApiUrl ? ` at ${config.slackApiUrl}` : ''
    return [fail('token', `auth.test${where} failed: ${slackError}`, adviceFor(slackError))]
  }
  results.push(pass('token', `valid: bot ${identity.user ?? identity.userId ?? '?'} in ${identity.team ?? 'the workspace'}${identity.url ? ` (${identity.url})` : ''}`))

  const granted = new Set(identity.scopes ?? [])
  if (!identity.scopes) {
    results.push(fail('scopes', 'Slack did not report the token’s scopes (no x-oauth-scopes header)', 'check SLACK_API_URL: a proxy in between may drop Slack’s response headers'))
  } else {
    const core = MANIFEST_BOT_SCOPES.filter((scope) => !THREAD_REPLY_SCOPES.includes(scope) && !CODE_CHANNEL_SCOPES.includes(scope))
    const missing = core.filter((scope) => !granted.has(scope))
    results.push(
      missing.length === 0
        ? pass('scopes', `all ${core.length} bot scopes of manifest.yml that questions need are granted`)
        : fail('scopes', `missing ${missing.join(', ')}`, 'add them under OAuth & Permissions → Bot Token Scopes (or paste manifest.yml again under App Manifest), then reinstall the app to the workspace'),
    )
  }

  if (identity.scopes) results.push(checkThreadReplies(granted))
  if (identity.scopes) results.push(checkCodeChannels(config, granted, options.codeChannelsOffBy ?? 'DSH_SLACK_CODE_CHANNELS=off'))
  results.push(await checkChannel(config.channel, slack, granted))
  results.push(await checkMode(config, slack))
  if (options.httpApi !== false) results.push(await checkApi(config, options.probeApi ?? probeApi))
  return results
}

/**
 * Thread replies (decision 0069) need the history scopes and the message
 * events. Slack reports the scopes but not the event subscriptions, so a
 * pass still names the events to check on the app's settings page.
 */
function checkThreadReplies(granted: Set<string>): CheckResult {
  const missing = THREAD_REPLY_SCOPES.filter((scope) => !granted.has(scope))
  if (missing.length === 0) return pass('thread replies', 'channels:history and groups:history are granted: a reply in a card’s thread answers it (if the app subscribes to message.channels and message.groups)')
  return missingFeature(
    'thread replies',
    `missing ${missing.join(', ')}: replies in a card's thread are not read (buttons and forms work as before)`,
    'add them under OAuth & Permissions → Bot Token Scopes and the bot events message.channels and message.groups under Event Subscriptions (or paste manifest.yml again), then reinstall the app (docs/slack-app-setup.md)',
  )
}

/**
 * Plan reviews in the agent session's code channel (decision 0073): off by
 * the operator, or without the scopes, a plan review is the card and its
 * thread. Slack does not report whether the workspace's plan has code
 * channels; the service's log says so at the first refusal.
 */
function checkCodeChannels(config: Config, granted: Set<string>, offBy: string): CheckResult {
  if (config.codeChannels === 'off') return pass('code channels', `turned off (${offBy}): plan reviews are the card and its thread`)
  const missing = CODE_CHANNEL_SCOPES.filter((scope) => !granted.has(scope))
  if (missing.length === 0) return pass('code channels', 'code_channels:manage and canvases:write are granted: a plan review of an agent session also goes into a canvas in its code channel, for comments')
  return missingFeature(
    'code channels',
    `missing ${missing.join(', ')}: plan reviews are the card and its thread (approving, dismissing and Request changes work as before)`,
    `add them under OAuth & Permissions → Bot Token Scopes (or paste manifest.yml again), then reinstall the app (docs/code-channels.md); or set ${offBy} to keep plan reviews in the thread`,
  )
}

/** The API's exposure, and whether a service listens there now: "listens" is said only of one that answers. */
async function checkApi(config: Config, probe: (host: string, port: number) => Promise<ApiProbe>): Promise<CheckResult> {
  const where = `${config.host}:${config.port}`
  const exposure = isLoopbackHost(config.host) ? `loopback only${config.apiKey ? ', with an API key' : ''}` : config.apiKey ? 'requires DSH_SLACK_API_KEY' : undefined
  if (exposure === undefined) {
    return fail(
      'HTTP API',
      `HOST is ${config.host}, not a loopback address, and DSH_SLACK_API_KEY is not set: serve refuses to start, since anyone on the network could ask and answer`,
      'set DSH_SLACK_API_KEY to a random key (e.g. DSH_SLACK_API_KEY=$(openssl rand -hex 24)) and send it as "Authorization: Bearer <key>"; or leave HOST unset to listen on 127.0.0.1 only',
    )
  }
  const found = await probe(config.host, config.port)
  if (found === 'dsh-slack') return pass('HTTP API', `a dsh-slack service listens on ${where}, ${exposure}`)
  if (found === 'nothing') return pass('HTTP API', `nothing listens on ${where} yet: dsh-slack serve (npm start) will, ${exposure}`)
  return fail('HTTP API', `${where} is taken by another program (it does not answer as dsh-slack), so dsh-slack serve cannot listen there`, `stop that program, or set PORT (and HOST) to a free address, e.g. PORT=${config.port === 3010 ? 3020 : 3010}`)
}

async function checkChannel(channel: string | undefined, slack: DoctorSlack, granted: Set<string>): Promise<CheckResult> {
  if (!channel) {
    return fail('channel', 'SLACK_CHANNEL is not set', 'set SLACK_CHANNEL to a channel id (C…, from the channel’s details in Slack) or a user id (U…) for DMs; without it every request must name its channel')
  }
  if (/^[UW]/.test(channel)) {
    try {
      const dm = await slack.openDm(channel)
      return pass('channel', `a DM with ${channel} opens (${dm}); questions go there`)
    } catch (error) {
      const slackError = slackErrorOf(error)
      return fail('channel', `conversations.open with ${channel} failed: ${slackError}`, adviceFor(slackError, { channel }))
    }
  }
  let info: Awaited<ReturnType<DoctorSlack['conversationInfo']>>
  try {
    info = await slack.conversationInfo(channel)
  } catch (error) {
    const slackError = slackErrorOf(error)
    return fail('channel', `conversations.info for ${channel} failed: ${slackError}`, adviceFor(slackError, { channel }))
  }
  const name = info.name ? `#${info.name} (${channel})` : channel
  if (info.isArchived) return fail('channel', `${name} is archived`, adviceFor('is_archived', { channel }))
  if (info.isMember) return pass('channel', `${name} exists and the bot is a member`)
  if (!info.isPrivate && granted.has('chat:write.public')) return pass('channel', `${name} exists; the bot is not a member but may post there (chat:write.public)`)
  return fail(
    'channel',
    `${name} exists but the bot is not a member${info.isPrivate ? ' of this private channel' : ''}`,
    info.isPrivate ? `invite the app: type /invite @dsh-slack in ${name}` : adviceFor('not_in_channel', { channel: name }),
  )
}

async function checkMode(config: Config, slack: DoctorSlack): Promise<CheckResult> {
  if (config.appToken) {
    try {
      await slack.openSocketConnection()
      return pass('Socket Mode', 'the app-level token opens a connection (apps.connections.open)')
    } catch (error) {
      const slackError = slackErrorOf(error)
      return fail(
        'Socket Mode',
        `apps.connections.open with SLACK_APP_TOKEN failed: ${slackError}`,
        slackError === 'invalid_auth' || slackError === 'not_authed' || slackError === 'not_allowed_token_type'
          ? 'create an app-level token with the connections:write scope (Basic Information → App-Level Tokens) and set SLACK_APP_TOKEN to it (xapp-…); check that Socket Mode is enabled'
          : adviceFor(slackError),
      )
    }
  }
  if (!config.signingSecret) {
    return fail('HTTP mode', 'neither SLACK_APP_TOKEN nor SLACK_SIGNING_SECRET is set', 'set SLACK_APP_TOKEN for Socket Mode (recommended), or SLACK_SIGNING_SECRET for HTTP mode')
  }
  return pass('HTTP mode', `SLACK_SIGNING_SECRET is set; Slack must reach this service's /slack/events over HTTPS (Interactivity → Request URL)`)
}
