import type { OpenAskOptions, SlackBridge } from '../bridge/types.js'
import { isUserInteractionError } from '../contract/index.js'
import type { Logger, LogLevel } from '../log/logger.js'
import type { AskRecord } from '../store/ask-record.js'
import { backoffDelay } from './backoff.js'
import { deliveryOutcome, type Closing } from './delivery-outcome.js'
import { toolCallsInHistory, type HostFrame, type ToolCall } from './frames.js'
import { HostClient, type ConnectionState } from './host-client.js'
import type { HostHttp } from './host-http.js'
import { externalKeyFor, hostEndpoints, rpcIdFromExternalKey, type HostEndpoints } from './host-url.js'
import { withKnownIntents } from './intents.js'
import { Outbox, type Delivery, type OutboxEntry } from './outbox.js'
import type { RelayErrorCode } from './relay-error.js'
import type { ResolvedHow } from './delivery-outcome.js'
import { responseFor, type HostRequest } from './responses.js'
import type { Scheduler } from './scheduler.js'
import { ToolCallMemory } from './tool-calls.js'
import { HostSessionEnds } from './session-ends.js'
import type { RelayTiming } from './timing.js'

export interface HostRelayOptions {
  bridge: SlackBridge
  hostUrl: string
  accessSecret?: string
  logger: Logger
  scheduler: Scheduler
  timing: RelayTiming
  http: HostHttp
  /** Cards name the host (the relay serves several): a session id alone does not say which host to open. */
  nameHost?: boolean
}

/** One host, as `startRelay(...).status()` reports it. */
export interface HostRelayStatus {
  url: string
  state: ConnectionState
  /** Why it is not connected, while it is not. */
  lastError?: { code: RelayErrorCode; message: string }
  /** Responses waiting for the host to be reachable. */
  outbox: number
}

/**
 * Relays one harness host: each request becomes an ask (found again by its
 * external key when the host replays it, so a message is never posted
 * twice, even across a restart of dsh-slack), each settlement in Slack goes
 * back to the host, and each settlement elsewhere updates the message.
 */
export class HostRelay {
  readonly endpoints: HostEndpoints
  readonly #options: HostRelayOptions
  readonly #client: HostClient
  /** The host's own stream: sessions archived in its web UI end here (decision 0078). */
  readonly #sessionEnds: HostSessionEnds
  readonly #outbox: Outbox
  /** What each open request needs for its response; filled by every (re)played frame. */
  readonly #requests = new Map<string, HostRequest>()
  /** `approval/resolved` names the approval, not the request. */
  readonly #rpcIdByApproval = new Map<string, string>()
  /** What each recent tool call asked to run, for the approval cards. */
  readonly #toolCalls = new ToolCallMemory()
  /** `bridge.open` calls in flight, so a replay racing the first frame shares it. */
  readonly #opening = new Map<string, Promise<AskRecord | undefined>>()
  /** How the host said a request ended (`question/resolved`, `approval/resolved`): the only source of "… outside Slack". */
  readonly #resolved = new Map<string, ResolvedHow>()
  /**
   * Open approvals whose tool call the relay has not seen, by session and
   * call id: when the call arrives (on the stream, or from the session's
   * history) the card is drawn again with what it would run.
   */
  readonly #awaitingArguments = new Map<string, { rpcId: string; toolName: string }>()
  /**
   * The host stopped answering respond calls while the socket stayed up
   * (a frozen process): the first failure of an outage is a warning, the
   * repeats are debug lines, and the recovery is said once.
   */
  #deliveryOutage = false
  /** Requests the host sent on the current connection. */
  #seen = new Set<string>()
  /**
   * After a (re)connect, queued responses wait until the host has replayed
   * their requests (or the replay grace has passed), so a request the host
   * still holds is matched before anything is sent, and one it lost is known
   * lost rather than guessed at.
   */
  #awaitingReplay = false
  #connection = 0
  #cancelGrace: (() => void) | undefined
  #cancelRetry: (() => void) | undefined
  #retryAttempt = 0
  #unsubscribe: (() => void) | undefined
  readonly #tasks = new Set<Promise<unknown>>()
  #stopped = false

  constructor(options: HostRelayOptions) {
    this.#options = options
    this.endpoints = hostEndpoints(options.hostUrl)
    this.#outbox = new Outbox((rpcId, entry) => this.#deliver(rpcId, entry))
    this.#client = new HostClient({
      endpoints: this.endpoints,
      ...(options.accessSecret !== undefined ? { accessSecret: options.accessSecret } : {}),
      http: options.http,
      logger: options.logger,
      scheduler: options.scheduler,
      timing: options.timing,
      onFrame: (frame) => this.#onFrame(frame),
      onConnected: (connection) => this.#onConnected(connection),
    })
    this.#sessionEnds = new HostSessionEnds({
      bridge: options.bridge,
      endpoints: this.endpoints,
      access: this.#client.access,
      http: options.http,
      logger: options.logger,
      scheduler: options.scheduler,
      timing: options.timing,
      track: (task) => this.#track(task),
    })
  }

  start(): void {
    this.#unsubscribe = this.#options.bridge.onSettled((record) => this.#onSettled(record))
    this.#client.start()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#unsubscribe?.()
    this.#cancelGrace?.()
    this.#cancelRetry?.()
    await Promise.all([this.#client.stop(), this.#sessionEnds.stop()])
    while (this.#tasks.size > 0) await Promise.allSettled([...this.#tasks])
  }

  status(): HostRelayStatus {
    const error = this.#client.lastError
    return {
      url: this.endpoints.base,
      state: this.#client.state,
      ...(error ? { lastError: { code: error.code, message: error.message } } : {}),
      outbox: this.#outbox.size,
    }
  }

  // ---- host → Slack ----------------------------------------------------------

  #onFrame(frame: HostFrame): void {
    if (this.#stopped) return
    switch (frame.kind) {
      case 'question': {
        const { rpcId, sessionId } = frame
        this.#seen.add(rpcId)
        this.#endReplayWaitIfMatched()
        this.#requests.set(rpcId, { kind: 'question', rpcId, sessionId })
        const { questions, dropped } = withKnownIntents(frame.questions)
        for (const { id, kind } of dropped) {
          this.#log('warn', `request ${rpcId}: question "${id}" has an intent of unknown kind "${kind}"; shown as a generic question`)
        }
        const options = this.#openOptions(rpcId)
        return this.#track(this.#open(rpcId, () => this.#options.bridge.open({ questions, agent: { id: sessionId } }, options)))
      }
      case 'approval': {
        const { rpcId, sessionId, approvalId, toolName, reason, callId } = frame
        this.#seen.add(rpcId)
        this.#endReplayWaitIfMatched()
        this.#requests.set(rpcId, { kind: 'approval', rpcId, sessionId, approvalId })
        this.#rpcIdByApproval.set(approvalId, rpcId)
        const call = this.#toolCalls.find(sessionId, callId, toolName)
        const input = {
          toolName,
          agent: { id: sessionId },
          ...(reason !== undefined ? { reason } : {}),
          ...(callId !== undefined ? { callId } : {}),
          ...(call ? { arguments: call.arguments } : {}),
        }
        const options = this.#openOptions(rpcId)
        const opened = this.#open(rpcId, () => this.#options.bridge.openApproval(input, options))
        if (call || callId === undefined) return this.#track(opened)
        // Not seen on the stream (yet): it may still come, or be in the session's history.
        this.#awaitingArguments.set(callKey(sessionId, callId), { rpcId, toolName })
        return this.#track(opened.then(() => this.#argumentsFromHistory(sessionId, callId)))
      }
      case 'tool-calls':
        for (const call of frame.calls) {
          this.#toolCalls.remember(frame.sessionId, call)
          this.#track(this.#arrived(frame.sessionId, call))
        }
        return
      case 'question-resolved':
        return this.#track(this.#onResolved(frame.questionRpcId, frame.outcome))
      case 'approval-resolved': {
        const rpcId = this.#rpcIdByApproval.get(frame.approvalId)
        if (rpcId === undefined) return this.#log('debug', `approval ${frame.approvalId} resolved; not one of ours`)
        this.#rpcIdByApproval.delete(frame.approvalId)
        // Said precisely: "Rejected outside Slack", not "Answered outside Slack".
        const how = frame.outcome === 'allowed-once' ? 'allowed' : frame.outcome === 'rejected' ? 'rejected' : 'cancelled'
        return this.#track(this.#onResolved(rpcId, how))
      }
      case 'sessions-archived':
        // The host stream's (session-ends.ts); the question stream does not carry it.
        return
      default: {
        const unknown: never = frame
        return unknown
      }
    }
  }

  async #open(rpcId: string, open: () => Promise<AskRecord>): Promise<void> {
    let opening = this.#opening.get(rpcId)
    if (!opening) {
      opening = open()
        .then((record) => {
          this.#log('debug', `request ${rpcId} is ask ${record.id} (${record.status})`)
          return record
        })
        .catch((error: unknown) => {
          const what = isUserInteractionError(error) ? `${error.code}: ${withoutAgentText(error.code, error.message)}` : String(error)
          this.#log('error', `request ${rpcId} cannot be shown in Slack: ${what}; it stays open on the host (answer it there)`)
          return undefined
        })
        .finally(() => this.#opening.delete(rpcId))
      this.#opening.set(rpcId, opening)
    }
    const record = await opening
    // The host replayed a request whose ask was settled while the host could
    // not hear it (down, or dsh-slack restarted before sending): send now.
    if (record && record.status !== 'pending') this.#onSettled(record)
  }

  /** The host's request as an ask: found again by its key, matched by the operator's rules on its host, named on the card when several hosts are relayed. */
  #openOptions(rpcId: string): OpenAskOptions {
    const relayDelivery = { key: externalKeyFor(this.endpoints.base, rpcId) }
    const origin = { host: this.endpoints.base }
    return this.#options.nameHost ? { relayDelivery, origin, host: this.endpoints.label } : { relayDelivery, origin }
  }

  /** A tool call the stream carried: the arguments an open approval card was still missing. */
  async #arrived(sessionId: string, call: ToolCall): Promise<void> {
    const key = callKey(sessionId, call.callId)
    const awaiting = this.#awaitingArguments.get(key)
    if (!awaiting || awaiting.toolName !== call.toolName) return
    this.#awaitingArguments.delete(key)
    const record = await this.#recordFor(awaiting.rpcId)
    if (!record || record.status !== 'pending') return
    if (await this.#options.bridge.showArguments(record.id, call.arguments)) {
      this.#log('info', `request ${awaiting.rpcId}: the tool call's arguments arrived after its card; ask ${record.id} shows them now`)
    }
  }

  #forgetAwaiting(rpcId: string): void {
    for (const [key, awaiting] of this.#awaitingArguments) if (awaiting.rpcId === rpcId) this.#awaitingArguments.delete(key)
  }

  /**
   * An approval replayed to a relay that connected after its tool call was
   * made: the host's event stream does not replay session events, but the
   * session's history (`session.history`) has the call.
   */
  async #argumentsFromHistory(sessionId: string, callId: string): Promise<void> {
    if (!this.#awaitingArguments.has(callKey(sessionId, callId)) || this.#stopped) return
    let calls: ToolCall[]
    try {
      calls = toolCallsInHistory(await this.#client.call('session.history', { sessionId }))
    } catch (error) {
      return this.#log('debug', `could not read session ${sessionId}'s history for call ${callId}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const call = calls.find((candidate) => candidate.callId === callId)
    if (!call) return this.#log('debug', `call ${callId} is not in session ${sessionId}'s history (yet)`)
    this.#toolCalls.remember(sessionId, call)
    await this.#arrived(sessionId, call)
  }

  async #onResolved(rpcId: string, how: ResolvedHow): Promise<void> {
    this.#resolved.set(rpcId, how)
    this.#forgetAwaiting(rpcId)
    this.#requests.delete(rpcId)
    this.#outbox.forget(rpcId)
    const record = await this.#recordFor(rpcId)
    if (!record) return
    // Settled in Slack already: our own response decides what the message
    // shows (a `not-pending` receipt corrects it if someone else won).
    if (record.status !== 'pending') return
    this.#log('info', `request ${rpcId} was ${how} outside Slack; ask ${record.id} withdrawn`)
    await this.#close(record.id, how)
  }

  async #recordFor(rpcId: string): Promise<AskRecord | undefined> {
    const opening = this.#opening.get(rpcId)
    if (opening) await opening
    return this.#options.bridge.store.findByExternalKey(externalKeyFor(this.endpoints.base, rpcId))
  }

  #onConnected(connection: number): void {
    this.#connection = connection
    if (!this.#stopped) this.#sessionEnds.start()
    this.#seen = new Set()
    this.#awaitingReplay = this.#outbox.size > 0
    this.#cancelGrace?.()
    this.#cancelGrace = this.#options.scheduler.after(this.#options.timing.replayGraceMs, () => {
      this.#cancelGrace = undefined
      if (connection !== this.#connection) return
      this.#endReplayWait()
      this.#track(this.#withdrawUnreplayed(connection))
    })
    this.#retryAttempt = 0
  }

  /** Every queued response's request has been replayed on this connection: send them now. */
  #endReplayWaitIfMatched(): void {
    if (this.#awaitingReplay && this.#outbox.rpcIds().every((rpcId) => this.#seen.has(rpcId))) this.#endReplayWait()
  }

  #endReplayWait(): void {
    this.#awaitingReplay = false
    this.#track(this.#flush())
  }

  /** Asks of this host the host did not replay: it no longer holds them (restarted, or settled while we were away). */
  async #withdrawUnreplayed(connection: number): Promise<void> {
    if (connection !== this.#connection || !this.#client.connected || this.#stopped) return
    const pending = await this.#options.bridge.store.listPending()
    for (const record of pending) {
      const rpcId = rpcIdFromExternalKey(this.endpoints.base, record.relayDelivery?.key)
      if (rpcId === undefined || this.#seen.has(rpcId) || this.#opening.has(rpcId)) continue
      if (connection !== this.#connection) return
      const how = this.#resolved.get(rpcId) ?? 'gone'
      this.#forgetAwaiting(rpcId)
      this.#log('info', `request ${rpcId} is no longer pending on the host; ask ${record.id} withdrawn`)
      await this.#close(record.id, how)
    }
  }

  // ---- Slack → host ----------------------------------------------------------

  #onSettled(record: AskRecord): void {
    const rpcId = rpcIdFromExternalKey(this.endpoints.base, record.relayDelivery?.key)
    if (rpcId === undefined || this.#stopped || this.#outbox.knows(rpcId)) return
    const request = this.#requests.get(rpcId)
    if (!request) {
      const how = this.#resolved.get(rpcId)
      // The host settled it just before the click landed: say who won.
      if (how && record.settlement && record.settlement.outcome.kind !== 'settled-elsewhere' && record.settlement.outcome.kind !== 'failed') {
        return this.#track(this.#close(record.id, how))
      }
      return this.#log('debug', `ask ${record.id} settled before the host replayed request ${rpcId}; it is answered when the host does`)
    }
    const response = responseFor(record, request)
    if (!response) return
    this.#outbox.add(rpcId, { askId: record.id, response, maybeDelivered: false })
    if (this.#awaitingReplay) return this.#endReplayWaitIfMatched()
    this.#track(this.#flush())
  }

  async #flush(): Promise<void> {
    if (!this.#client.connected || this.#awaitingReplay) return
    const emptied = await this.#outbox.flush()
    if (emptied || this.#stopped || !this.#client.connected || this.#cancelRetry) return
    // Reachable over the socket but not over HTTP: try again with backoff;
    // a reconnect flushes anyway.
    const delay = backoffDelay(this.#retryAttempt++, { initialMs: this.#options.timing.backoffInitialMs, maxMs: this.#options.timing.backoffMaxMs }, this.#options.scheduler.random)
    this.#cancelRetry = this.#options.scheduler.after(delay, () => {
      this.#cancelRetry = undefined
      this.#track(this.#flush())
    })
  }

  async #deliver(rpcId: string, entry: OutboxEntry): Promise<Delivery> {
    const result = await this.#client.respond(entry.response)
    if (result.kind === 'unreachable' && result.error.maybeDelivered) entry.maybeDelivered = true
    if (result.kind !== 'unreachable') this.#retryAttempt = 0
    const outcome = deliveryOutcome(rpcId, entry, result, this.#resolved.get(rpcId))
    this.#logDelivery(result.kind === 'unreachable', outcome.log)
    if (outcome.close) await this.#close(entry.askId, outcome.close)
    if (outcome.delivery === 'delivered') await this.#delivered(entry.askId)
    return outcome.delivery
  }

  /** One warning per outage, however many retries it takes; the recovery is said once too. */
  #logDelivery(unreachable: boolean, log: { level: LogLevel; message: string }): void {
    if (unreachable) {
      if (this.#deliveryOutage) return this.#log('debug', log.message)
      this.#deliveryOutage = true
      return this.#log(log.level, `${log.message} (retrying; repeats are logged at debug until the host answers)`)
    }
    if (this.#deliveryOutage) {
      this.#deliveryOutage = false
      this.#log('info', `the host answers again; delivering the ${this.#outbox.size} ${this.#outbox.size === 1 ? 'answer' : 'answers'} kept`)
    }
    this.#log(log.level, log.message)
  }

  async #delivered(askId: string): Promise<void> {
    try {
      await this.#options.bridge.delivered(askId)
    } catch (error) {
      this.#log('error', `could not update ask ${askId}'s message: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  // ---- helpers -----------------------------------------------------------------

  async #close(askId: string, how: Closing): Promise<void> {
    try {
      await this.#options.bridge.closeElsewhere(askId, how)
    } catch (error) {
      this.#log('error', `could not update ask ${askId}'s message: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  #track(task: Promise<unknown>): void {
    const tracked = task.catch((error: unknown) => this.#log('error', `relay task failed: ${error instanceof Error ? error.message : String(error)}`))
    this.#tasks.add(tracked)
    void tracked.finally(() => this.#tasks.delete(tracked))
  }

  #log(level: LogLevel, message: string): void {
    this.#options.logger[level](`relay ${this.endpoints.base}: ${message}`)
  }
}

function callKey(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`
}

/**
 * A validation message with the agent's own words taken out: it quotes
 * labels and ids (`option label "…" appears twice`), and the log promises
 * never to hold question text. Slack's errors quote only Slack's codes.
 */
function withoutAgentText(code: string, message: string): string {
  if (code === 'SLACK_API_ERROR') return message
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
}
