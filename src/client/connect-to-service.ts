import { ConfigError } from '../config/config-error.js'
import { valueChecks } from '../config/config.js'
import { parseDuration } from '../config/duration.js'
import { assertSupportedNode } from '../config/node-range.js'
import type { AskOptions, PolicyAwareProvider } from '../bridge/waiting.js'
import { UserInteractionError, validateRequest, type AgentLike, type AskUserQuestionRequest } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import { askThroughService } from './ask-through-service.js'
import { ServiceHttp } from './service-http.js'

/** Options of `connectToService`. */
export interface ServiceConnectionOptions {
  /** Base URL of a running `dsh-slack serve`, e.g. `http://127.0.0.1:3000` or `https://dsh-slack.internal`. */
  url: string
  /** The service's `DSH_SLACK_API_KEY`, when it has one. */
  apiKey?: string
  /** Where this client's questions go (channel or user id); default: the service's `SLACK_CHANNEL`. */
  channel?: string
  /** Expiry of this client's questions, in ms or as text like `30m`; default: the service's `DSH_SLACK_TIMEOUT`. */
  timeout?: number | string
  /** Progress lines (posted, reconnecting, withdrawn) at debug level; warnings when the service is lost. */
  logger?: Logger
}

/** A provider that asks through a running service. */
export interface ServiceConnection {
  /** The seam's provider: the same answers and `UserInteractionError` codes as `createSlackBridge`'s. */
  readonly provider: PolicyAwareProvider
  /** Withdraws every question still open through this connection (their `ask()` rejects with `ASK_ABORTED`); later asks are refused. */
  stop(): Promise<void>
}

/**
 * `connectToService({ url, apiKey })` (ARCHITECTURE.md, fixed): an agent
 * asks through a running service, with no Slack token of its own. It is
 * synchronous and opens nothing: each `ask()` is one `POST /v1/asks` and
 * long-polls, so a service that is restarting when the connection is made
 * (or during a wait) costs nothing but a retry.
 */
export function connectToService(options: ServiceConnectionOptions): ServiceConnection {
  assertSupportedNode()
  const { http, channel, timeoutMs } = checkOptions(options)
  const logger = options.logger
  const open = new Set<AbortController>()
  let stopped = false
  let stopping: Promise<void> | undefined
  const running = new Set<Promise<unknown>>()

  const provider: PolicyAwareProvider = {
    async ask(request: AskUserQuestionRequest, askOptions: AskOptions = {}) {
      // The seam's checks, in its order, before any network: the same codes
      // and messages as in-process, and no round trip for a request that
      // cannot be asked.
      const valid = validateRequest(request)
      if (stopped) throw new UserInteractionError('ASK_ABORTED', 'this service connection is stopped; connect again to ask')
      const stop = new AbortController()
      open.add(stop)
      const signal = valid.signal ? AbortSignal.any([valid.signal, stop.signal]) : stop.signal
      const agent = agentBody(valid.agent)
      const body: Record<string, unknown> = { questions: valid.questions, ...(agent ? { agent } : {}), ...(channel ? { channel } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) }
      // The service holds it to the operator's policy (403 POLICY_FORBIDDEN → UserInteractionError).
      if (askOptions.policy !== undefined) body.policy = askOptions.policy
      const asking = askThroughService({
        http,
        body,
        signal,
        progress: {
          posted: (ask) => logger?.debug(`ask ${ask.id} posted through ${http.base}`),
          retrying: (reason) => logger?.warn(`${reason}; retrying`),
          withdrawn: (id, outcome) => ('failed' in outcome ? logger?.warn(`could not withdraw ask ${id} (${outcome.failed}); it stays open in Slack`) : logger?.debug(`ask ${id} withdrawn: ${outcome.status}`)),
        },
      })
      running.add(asking)
      try {
        return await asking
      } finally {
        running.delete(asking)
        open.delete(stop)
      }
    },
  }

  return {
    provider,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true
        for (const controller of open) controller.abort()
        await Promise.allSettled([...running])
      })()),
  }
}

/** Checked once, where the options arrive: a typo fails here with the option's name. */
function checkOptions(options: ServiceConnectionOptions): { http: ServiceHttp; channel?: string; timeoutMs?: number } {
  if (typeof options?.url !== 'string' || !/^https?:\/\/[^/]/.test(options.url)) {
    throw new ConfigError('url', `${JSON.stringify(options?.url)} is not the http(s) URL of a running dsh-slack service (expected e.g. http://127.0.0.1:3000)`)
  }
  try {
    new URL(options.url)
  } catch {
    throw new ConfigError('url', 'is not a URL (expected e.g. http://127.0.0.1:3000)')
  }
  if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || valueChecks.apiKey(options.apiKey))) {
    throw new ConfigError('apiKey', 'must be the service’s DSH_SLACK_API_KEY (at least 16 characters)')
  }
  const checked: { http: ServiceHttp; channel?: string; timeoutMs?: number } = { http: new ServiceHttp(options.url, options.apiKey) }
  if (options.channel !== undefined) {
    const problem = typeof options.channel === 'string' ? valueChecks.channel(options.channel) : 'must be a string'
    if (problem) throw new ConfigError('channel', problem)
    checked.channel = options.channel
  }
  if (options.timeout !== undefined) {
    const ms = typeof options.timeout === 'number' ? options.timeout : parseDuration(options.timeout)
    if (ms === null || !(ms > 0)) throw new ConfigError('timeout', `${JSON.stringify(options.timeout)} is not a duration (expected milliseconds, or text like 90s, 30m or 2h)`)
    checked.timeoutMs = Math.round(ms)
  }
  return checked
}

/**
 * The HTTP API takes `{ id, title? }` for the context line; a harness
 * `Agent` object (with its session and options) is not sent as it is.
 */
function agentBody(agent: AgentLike | undefined): { id: string; title?: string } | undefined {
  if (!agent || typeof agent.id !== 'string' || agent.id.trim() === '') return undefined
  return typeof agent.title === 'string' && agent.title.trim() !== '' ? { id: agent.id, title: agent.title } : { id: agent.id }
}
