import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { collectNodeMetrics } from './node-metrics.js'

/** What the metrics read when scraped; set once the bridge runs. */
export interface MetricSources {
  /** Asks still pending in the store (every instance's, when the store is shared). */
  openAsks(): Promise<number>
  /** Posts queued or in flight per channel in this process. */
  postsWaiting(): ReadonlyMap<string, number>
  /** Whether the store answers. */
  storeUp(): Promise<boolean>
  /** Settled cards whose updates have kept failing for a while (retried until they land). */
  stuckCards?(): number
  /** Audit events waiting in this process for the store to be reachable again. */
  auditEventsWaiting?(): number
}

/** Why a request or click was refused: the `reason` of `dsh_slack_refused_total`. */
export type RefusalReason = 'unauthorized' | 'policy-forbidden' | 'too-many-pending' | 'click'

/** A settled ask as the metrics need it. */
export interface SettledAsk {
  status: string
  /** When it was created and settled (ms since the epoch). */
  createdAt: number
  settledAt: number | undefined
}

// Time to answer runs from seconds (a person at their desk) to a day (overnight).
const ANSWER_SECONDS_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600]

/**
 * The service's `/metrics` (Prometheus text format, prom-client), one
 * registry per service so two services in one process (tests) never share
 * counters. Counters count what *this* instance did; sum them across
 * instances. Labels never carry question text or user ids: only statuses,
 * Web API method names, Slack's error codes and channel ids.
 */
export class ServiceMetrics {
  readonly registry = new Registry()
  readonly #settled: Counter<'status'>
  readonly #timeToAnswer: Histogram
  readonly #slackCalls: Counter<'method'>
  readonly #slackErrors: Counter<'method' | 'error'>
  readonly #rateLimited: Counter<'method'>
  readonly #refused: Counter<'reason'>
  readonly #reloadsRefused: Counter<'reason'>
  #sources: MetricSources | undefined

  constructor() {
    const registers = [this.registry]
    this.#settled = new Counter({ name: 'dsh_slack_asks_settled_total', help: 'Asks settled by this instance, by final status (answered, cancelled, expired, aborted, failed).', labelNames: ['status'], registers })
    this.#timeToAnswer = new Histogram({ name: 'dsh_slack_time_to_answer_seconds', help: 'From posting a question to its answer in Slack (answered asks only).', buckets: ANSWER_SECONDS_BUCKETS, registers })
    this.#slackCalls = new Counter({ name: 'dsh_slack_slack_api_calls_total', help: 'Slack Web API calls made, by method.', labelNames: ['method'], registers })
    this.#slackErrors = new Counter({ name: 'dsh_slack_slack_api_errors_total', help: 'Slack Web API calls that failed, by method and Slack error.', labelNames: ['method', 'error'], registers })
    this.#rateLimited = new Counter({ name: 'dsh_slack_slack_rate_limited_total', help: 'Slack Web API calls answered 429 (ratelimited), by method.', labelNames: ['method'], registers })
    this.#refused = new Counter({ name: 'dsh_slack_refused_total', help: 'Requests and clicks refused, by reason: unauthorized (401), policy-forbidden (403), too-many-pending (429), click (a click by someone the ask does not allow).', labelNames: ['reason'], registers })
    this.#reloadsRefused = new Counter({ name: 'dsh_slack_policy_reloads_refused_total', help: 'Policy reloads refused, the old policy kept, by reason: invalid (includes a file that defines nothing, is not a regular file, or is over 4 MiB), timed-out, looser (a change picked up from the file that loosens the policy: SIGHUP applies it), drops-every-key, opens-service.', labelNames: ['reason'], registers })
    const sources = () => this.#sources
    let lastOpen = 0
    new Gauge({
      name: 'dsh_slack_asks_open',
      help: 'Asks waiting for an answer (in a shared store: every instance’s).',
      registers,
      async collect() {
        const source = sources()
        // The store away: /metrics still answers (dsh_slack_store_up says 0), with the last count.
        if (source) this.set((lastOpen = await source.openAsks().catch(() => lastOpen)))
      },
    })
    new Gauge({
      name: 'dsh_slack_channel_posts_waiting',
      help: 'Posts queued or in flight per channel (paced to about one a second).',
      labelNames: ['channel'],
      registers,
      collect() {
        this.reset()
        for (const [channel, count] of sources()?.postsWaiting() ?? []) this.set({ channel }, count)
      },
    })
    new Gauge({
      name: 'dsh_slack_store_up',
      help: '1 when the ask store answers, 0 when it does not.',
      registers,
      async collect() {
        const source = sources()
        if (source) this.set((await source.storeUp()) ? 1 : 0)
      },
    })
    new Gauge({
      name: 'dsh_slack_cards_stuck',
      help: 'Settled asks whose card still shows the open question because every update for over a minute failed (Slack or the store away); retried until they land.',
      registers,
      collect() {
        this.set(sources()?.stuckCards?.() ?? 0)
      },
    })
    new Gauge({
      name: 'dsh_slack_audit_events_waiting',
      help: 'Audit events this instance could not record because the store was unreachable; recorded in order once it is back.',
      registers,
      collect() {
        this.set(sources()?.auditEventsWaiting?.() ?? 0)
      },
    })
    // Node's own: event-loop delay (nodejs_eventloop_lag_*), memory, handles, CPU.
    collectNodeMetrics(this.registry)
  }

  attach(sources: MetricSources): void {
    this.#sources = sources
  }

  /** A Web API call finished (the bridge's `observeSlackCalls`). */
  readonly slackCall = (method: string, slackError: string | undefined): void => {
    this.#slackCalls.inc({ method })
    if (slackError === undefined) return
    this.#slackErrors.inc({ method, error: slackError })
    if (slackError === 'ratelimited') this.#rateLimited.inc({ method })
  }

  /** A request or click refused (docs/security.md: refusals are counted). */
  readonly refused = (reason: RefusalReason): void => {
    this.#refused.inc({ reason })
  }

  /** A policy reload refused: the old policy stays in force. */
  readonly policyReloadRefused = (reason: string): void => {
    this.#reloadsRefused.inc({ reason })
  }

  /** An ask settled in this instance. */
  settled(ask: SettledAsk): void {
    this.#settled.inc({ status: ask.status })
    if (ask.status === 'answered' && ask.settledAt !== undefined) this.#timeToAnswer.observe(Math.max(0, ask.settledAt - ask.createdAt) / 1000)
  }

  get contentType(): string {
    return this.registry.contentType
  }

  render(): Promise<string> {
    return this.registry.metrics()
  }
}
