import { createServer, type Server } from 'node:http'
import { App, HTTPReceiver, SocketModeReceiver } from '@slack/bolt'
import type { WebClientOptions } from '@slack/web-api'
import { UserInteractionError } from '../contract/index.js'
import { consoleLogger } from '../log/logger.js'
import type { AskStore } from '../store/ask-store.js'
import { openStore } from '../store/open-store.js'
import { boltLogger } from '../slack/bolt-logger.js'
import { guardSlackEvents } from '../slack/events-guard.js'
import { ChannelPacer } from '../slack/channel-pacer.js'
import { FormDrafts } from './handlers/form-drafts.js'
import { CardChoices } from '../bridge/card-choices.js'
import { registerHandlers } from './handlers/register.js'
import { SlackCallError } from '../slack/slack-call-error.js'
import { adviceFor } from '../slack/slack-error-advice.js'
import { TIMING } from '../slack/timing.js'
import { webApiPort } from '../slack/web-api-port.js'
import { codeChannelPort } from '../slack/code-channel-port.js'
import { PlanCanvases } from '../bridge/code-channel/plan-canvases.js'
import { SessionEnds } from '../bridge/code-channel/session-end.js'
import { trackInFlight } from '../slack/in-flight-calls.js'
import { refusalLog } from '../log/refusal-log.js'
import { AnswerPolicy } from '../bridge/answer-policy.js'
import type { ViewSettings } from '../bridge/ask-view.js'
import { AskLifecycle } from '../bridge/ask-lifecycle.js'
import { HomeTab } from '../bridge/home-tab.js'
import { Reminders } from '../bridge/reminders.js'
import { resolveOptions } from '../bridge/bridge-options.js'
import type { SlackBridge, SlackBridgeOptions, SlackHealth } from '../bridge/types.js'
import { createProvider, waitForSettlement } from '../bridge/waiting.js'
import { loadShellParser } from '../policy/command/shell-parser.js'
import { assertSupportedNode } from '../config/node-range.js'

/**
 * Web API calls: a few quick retries for 5xx and network blips, a timeout
 * (the SDK's default is none), and 429s handed to our per-channel pacer
 * instead of pausing the client's whole queue for up to 30 minutes.
 */
function webClientOptions(slackApiUrl: string | undefined, logger: ReturnType<typeof boltLogger>): WebClientOptions {
  return {
    ...(slackApiUrl ? { slackApiUrl } : {}),
    retryConfig: { retries: 2, factor: 2, minTimeout: 300, maxTimeout: 2000, randomize: true },
    timeout: TIMING.webApiTimeoutMs,
    rejectRateLimitedCalls: true,
    logger,
  }
}

/**
 * Starts a bridge: checks the token, connects (Socket Mode, or HTTP mode
 * with verified requests), recovers asks left from an earlier run, and
 * returns the provider and the lower-level operations.
 */
export async function createSlackBridge(options: SlackBridgeOptions): Promise<SlackBridge> {
  assertSupportedNode()
  const resolved = resolveOptions(options)
  // Command rules need the shell parser; until it is loaded a command is unknown and falls to the strictest rule.
  await loadShellParser()
  const logger = options.logger ?? consoleLogger()
  const slackLogger = boltLogger(logger)
  const clientOptions = webClientOptions(resolved.slackApiUrl, slackLogger)
  const socketMode = resolved.appToken !== undefined

  const receiver = socketMode
    ? new SocketModeReceiver({
        appToken: resolved.appToken!,
        logger: slackLogger,
        // Its own options object: the socket client raises the retry count of
        // the options it is given for reconnects, which must not leak into our calls.
        installerOptions: { clientOptions: { ...clientOptions, retryConfig: { retries: 20, factor: 1.5, maxTimeout: 30_000 } } },
      })
    : new HTTPReceiver({ signingSecret: resolved.signingSecret!, endpoints: '/slack/events', logger: slackLogger })
  // Initialised below, after our own auth.test: constructed plainly, Bolt calls
  // auth.test at once and leaves its rejection unhandled, which a host (the
  // harness) treats as fatal, so a revoked token would stop the whole run.
  const app = new App({ token: resolved.botToken, receiver, socketMode, clientOptions, logger: slackLogger, deferInitialization: true })

  const calls = trackInFlight(webApiPort(app.client, options.observeSlackCalls))
  const slack = calls.port
  let workspaceUrl: string | undefined
  try {
    // Once per start: the workspace URL makes every permalink without a call per ask.
    workspaceUrl = (await slack.authTest()).url
  } catch (error) {
    const slackError = error instanceof SlackCallError ? error.slackError : 'request_failed'
    throw new UserInteractionError('SLACK_API_ERROR', `auth.test failed with Slack error "${slackError}": ${adviceFor(slackError)}`, { cause: error })
  }
  await app.init()

  const ownsStore = typeof options.state !== 'object'
  const store: AskStore = await openStore(options.state, { logger })
  // A policy passed in names who new questions notify (its defaults' mention); else DSH_SLACK_MENTION.
  const mentionOfPolicy = () => (options.policy === undefined ? resolved.mention : resolved.policy.current.defaults.mention[0])
  const settings: ViewSettings = { locale: resolved.locale }
  const setMention = () => {
    const mention = mentionOfPolicy()
    if (mention) settings.mention = mention
    else delete settings.mention
  }
  setMention()
  // On a shared store every instance on the Slack app paces against one budget, as Slack counts it.
  const pacer = new ChannelPacer({ ...(store.rateLedger ? { ledger: store.rateLedger } : {}), logger, ...(options.updateBudget ? { updateBudget: options.updateBudget } : {}) })
  const lifecycle = new AskLifecycle({
    store,
    slack,
    pacer,
    settings,
    ...(resolved.channel ? { defaultChannel: resolved.channel } : {}),
    ...(resolved.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: resolved.defaultTimeoutMs } : {}),
    owner: resolved.owner,
    logger,
    ...(workspaceUrl !== undefined ? { workspaceUrl } : {}),
    policy: resolved.policy,
    ...(options.now ? { now: options.now } : {}),
  })
  const policy = new AnswerPolicy(slack, { allowedUsers: resolved.policy.current.defaults.answerers }, logger)
  const unwatchPolicy = resolved.policy.onReplace((replaced) => {
    policy.setAllowed(replaced.defaults.answerers)
    setMention()
  })
  const now = options.now ?? Date.now
  const home = new HomeTab({ store, slack, pacer, policy, settings, logger, now, instance: lifecycle.instance })
  const refreshHomes = (record: Parameters<HomeTab['refreshFor']>[0]) => {
    home.refreshFor(record).catch((error: unknown) => logger.warn(`could not refresh Home tabs for ask ${record.id}: ${error instanceof Error ? error.message : String(error)}`))
  }
  lifecycle.onOpenChanged(refreshHomes)
  lifecycle.onSettled(refreshHomes)
  const codeChannels = codeChannelPort(app.client, options.observeSlackCalls)
  const planCanvases = new PlanCanvases({ port: codeChannels, slack, logger, mode: options.codeChannels ?? 'auto', nameOf: (id) => codeChannels.userName(id) })
  lifecycle.onOpenChanged((record) => planCanvases.opened(record))
  lifecycle.onSettled((record) => planCanvases.settled(record))
  const sessionEnds = new SessionEnds({ port: codeChannels, slack, store, canvases: planCanvases, logger })
  registerHandlers(app, { lifecycle, slack, policy, settings, drafts: new FormDrafts(), cardChoices: new CardChoices(lifecycle.store, now), logger, now, home, planCanvases, logRefusal: refusalLog(logger, now), ...(options.observeRefusedClicks ? { observeRefusedClick: options.observeRefusedClicks } : {}) })

  let health: SlackHealth = 'connected'
  let server: Server | undefined
  try {
    if (receiver instanceof SocketModeReceiver) {
      receiver.client.on('connected', () => (health = 'connected'))
      receiver.client.on('reconnecting', () => (health = 'disconnected'))
      receiver.client.on('disconnected', () => (health = 'disconnected'))
      await app.start()
    } else if (options.listen !== false) {
      const { host = '127.0.0.1', port } = options.listen ?? { port: 3000 }
      server = createServer(guardSlackEvents(receiver.requestListener, { logger }))
      await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(port, host, resolve))
    }
    await lifecycle.recover()
  } catch (error) {
    // Half started: close what is open, or a socket left reconnecting keeps a
    // host that carries on without us (a headless run) from ever exiting.
    if (socketMode) await app.stop().catch(() => undefined)
    server?.close()
    if (ownsStore) await store.close().catch(() => undefined)
    throw error
  }
  const reminders = new Reminders({ lifecycle, slack, pacer, settings, logger, now: options.now ?? Date.now })
  reminders.start(options.schedulerIntervalMs ?? TIMING.schedulerPollMs)

  let stopped: Promise<void> | undefined
  const bridge: SlackBridge = {
    provider: createProvider(lifecycle),
    open: (request, openOptions) => lifecycle.open(request, openOptions),
    openApproval: (input, openOptions) => lifecycle.openApproval(input, openOptions),
    get: (id) => store.get(id),
    // A read-only wait on an ask posted here and still open, or settled here, starts from what this process knows: no read (decision 0103).
    waitForSettlement: (id, timeoutMs, signal, waitOptions) =>
      waitForSettlement(store, id, timeoutMs, signal, waitOptions?.readOnly ? { readOnly: true, knownHere: (askId) => lifecycle.knownHere(askId) } : {}),
    abort: (id, by) => lifecycle.abort(id, { kind: 'aborted', at: now(), ...(by?.key !== undefined ? { byKey: by.key } : {}) }),
    closeElsewhere: (id, how) => lifecycle.closeElsewhere(id, how),
    delivered: (id) => lifecycle.delivered(id),
    showArguments: (id, args) => lifecycle.showArguments(id, args),
    onSettled: (listener) => lifecycle.onSettled(listener),
    sessionEnded: (sessionId, door) => sessionEnds.sessionEnded(sessionId, door),
    health: () => health,
    postsWaiting: () => pacer.waiting(),
    stuckCards: () => lifecycle.stuckCards(),
    auditEventsWaiting: () => lifecycle.auditEventsWaiting(),
    store,
    stop: (stopOptions) =>
      (stopped ??= (async () => {
        unwatchPolicy()
        await reminders.stop()
        await lifecycle.stop(stopOptions)
        await home.stop()
        if (socketMode) await app.stop()
        // No new interactions now; let the calls already on their way (a message
        // update after a click) reach Slack before the store closes.
        await calls.idle()
        if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
        if (ownsStore) await store.close()
      })()),
  }
  if (receiver instanceof HTTPReceiver && options.listen === false) {
    Object.assign(bridge, { slackRequestListener: guardSlackEvents(receiver.requestListener, { logger }) })
  }
  const address = server?.address()
  if (address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    Object.assign(bridge, { slackEventsUrl: `http://${host}:${address.port}/slack/events` })
  }
  return bridge
}
