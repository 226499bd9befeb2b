import type { AgentView, Locale, SettledElsewhereHow } from '../../blocks/view.js'
import type { AskUserQuestionRequest, UserInteractionProvider } from '../contract/index.js'
import type { ApprovalRequest, AskDoor, AskRecord, RelayDelivery } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { Logger } from '../log/logger.js'
import type { SessionEndOutcome } from './code-channel/session-end.js'
import type { AskOrigin, PolicyInput } from './ask-policy.js'
import type { OperatorPolicy, AskLimits } from '../policy/operator-policy.js'
import type { PolicyHolder } from '../policy/policy-holder.js'
import type { PolicyAwareProvider } from './waiting.js'
import type { SlackCallObserver } from '../slack/slack-call-error.js'

/**
 * Options of `createSlackBridge`: the environment variables of
 * ARCHITECTURE.md, camel-cased, plus a few that only a program can pass.
 */
export interface SlackBridgeOptions {
  /** Bot token (`xoxb-…`). Required. */
  botToken: string
  /** App-level token (`xapp-…`): Socket Mode. Absent: HTTP mode (then `signingSecret` is required). */
  appToken?: string
  /** HTTP mode: verifies every request from Slack. */
  signingSecret?: string
  /** Where questions go by default: a channel id (C…/G…) or a user id (U…/W…, as a DM). */
  channel?: string
  /** Web API base URL (default Slack's own): proxies, Enterprise Grid, the local stand-in. */
  slackApiUrl?: string
  /** User ids who may answer. With `allowedUserGroups` both empty: anyone who can see the message. */
  allowedUsers?: string[]
  /** User-group ids whose members may answer. */
  allowedUserGroups?: string[]
  /** Who to notify on each new question (user or user-group id). */
  mention?: string
  /** The bridge's own words: `en` (default) or `zh-CN`. */
  locale?: Locale
  /** Default expiry of a question, in ms or as text like `30m`. Absent: never expires. */
  timeout?: number | string
  /**
   * Where asks are kept: a SQLite file path (default `.dsh-slack/state.sqlite`),
   * `':memory:'`, a `postgres://…` / `postgresql://…` URL shared by every
   * process on one Slack app (any of them can then take any click), or a
   * store object.
   */
  state?: string | AskStore
  /**
   * HTTP mode only: where Bolt listens for Slack's requests (`/slack/events`).
   * `false`: do not listen; mount `bridge.slackRequestListener` on your own server.
   */
  listen?: { host?: string; port: number } | false
  /** Default quorum of plan reviews and tool approvals, 1–10 (default 1: the first approval settles). */
  approvals?: number
  /** Who may approve (and veto) plan reviews and tool approvals: user and user-group ids. Absent: `allowedUsers`/`allowedUserGroups`. */
  approvers?: string[]
  /** Remind in the question's thread after this long without an answer (ms or text like `15m`). */
  remindAfter?: number | string
  /** Bring an unanswered question to this user (a DM) or user group (a mention)… */
  escalateTo?: string
  /** …after this long (ms or text like `1h`). */
  escalateAfter?: number | string
  /**
   * The operator's policy (`DSH_SLACK_POLICY`): the path of a policy file
   * (YAML or JSON, checked at start like the variable), or the policy
   * itself: rules, quorum, approvers, channels, reminders, escalation, keys.
   * Given, it wins over `approvals`,
   * `approvers`, `allowedUsers`, `allowedUserGroups`, `mention`,
   * `remindAfter` and `escalate*`; a `PolicyHolder` can be swapped while the
   * bridge runs (a reload).
   */
  policy?: string | OperatorPolicy | PolicyHolder
  /** The clock for reminders, escalations and the audit trail (tests pass a fake). */
  now?: () => number
  /** How often due reminders and escalations are looked for, in ms (default 5 s). */
  schedulerIntervalMs?: number
  /** Whose asks these are: a service keeps them open across restarts; a library's expire with it. */
  owner?: 'service' | 'library'
  logger?: Logger
  /**
   * Plan reviews of an agent session in its code channel's canvas
   * (`DSH_SLACK_CODE_CHANNELS`): `auto` (default) when Slack allows it,
   * `off` for the card and its thread only (decision 0073).
   */
  codeChannels?: 'auto' | 'off'
  /** Told of every Web API call once it finished, with Slack's error when it failed (the service's `/metrics`). */
  observeSlackCalls?: SlackCallObserver
  /** Told of every click refused because the person may not act on the ask (the service's `dsh_slack_refused_total{reason="click"}`). */
  observeRefusedClicks?: () => void
  /**
   * chat.update's budget: `learned` (default) sends at the documented Tier 3
   * without waiting and beyond it as far as Slack's answers allow (decision
   * 0045); `documented` never goes beyond the documented 50 a minute.
   */
  updateBudget?: 'learned' | 'documented'
}

/** Options for posting one ask without waiting (the service's `POST /v1/asks`). */
export interface OpenAskOptions {
  /** Overrides the default channel for this ask. */
  channel?: string
  /** Overrides the default expiry for this ask. */
  timeoutMs?: number
  /** `POST /v1/asks`: the request's scoped `Idempotency-Key`, so a retried POST finds the same ask. */
  idempotencyKey?: string
  /** Relay: the host's request, so a replay finds the same ask and the card waits for the delivery. */
  relayDelivery?: RelayDelivery
  /** Quorum, approvers, reminder and escalation for this ask: it may only tighten the operator's policy (`POLICY_FORBIDDEN`). */
  policy?: PolicyInput
  /** Relay with several hosts: which host asks, shown on the card beside the session. */
  host?: string
  /** Who sent it (API key name, harness host): what the operator's rules match on. */
  origin?: AskOrigin
  /** The operator's caps on pending asks: past one the ask is refused with `PendingCapReached`, counted as it is recorded. */
  caps?: AskLimits
  /**
   * Told once the ask is recorded and waiting for its turn to be posted,
   * with when the post is expected (the HTTP API can answer then, instead
   * of after the post).
   */
  onQueued?: (queued: QueuedAsk) => void
}

/** An ask recorded and queued to be posted. */
export interface QueuedAsk {
  record: AskRecord
  /** When the post is expected to go out (ms since the epoch), from the queue ahead of it. */
  expectedPostAt: number
}

/** A tool approval to post (relay). */
export interface OpenApprovalInput extends ApprovalRequest {
  agent?: AgentView
}

/** How a relay closes an ask it did not settle in Slack. */
export type CloseHow = SettledElsewhereHow | { failed: string }

/** Whether the bridge can reach Slack right now. */
export type SlackHealth = 'connected' | 'disconnected'

/**
 * A running bridge: the seam's provider plus the lower-level operations the
 * service and the relay are built from. One ask lifecycle serves them all.
 */
export interface SlackBridge {
  /** The seam: `ask()` posts, waits, and settles with the answer or a `UserInteractionError`. */
  readonly provider: PolicyAwareProvider
  /**
   * Validates and posts an ask, and returns its record (status `pending`,
   * `message` set). Rejects with a `UserInteractionError` (`BAD_REQUEST`,
   * `EMPTY_QUESTIONS`, `BAD_INTENT`, `SLACK_API_ERROR`, …). With an
   * `idempotencyKey` or `relayDelivery` that already has an ask, returns that
   * ask and posts nothing.
   */
  open(request: AskUserQuestionRequest, options?: OpenAskOptions): Promise<AskRecord>
  /** Posts a tool approval card (relay); same rules as `open`. */
  openApproval(input: OpenApprovalInput, options?: OpenAskOptions): Promise<AskRecord>
  get(id: string): Promise<AskRecord | undefined>
  /**
   * Resolves with the record once it is settled, or with the still-pending
   * record after `timeoutMs`, or when `signal` fires. Never rejects for a
   * settlement; unknown id → `undefined`. `readOnly`: the caller changes
   * nothing in the record it gets (the HTTP long-poll), so it may be one
   * shared with the settler, and an ask kept open here is not read first.
   */
  waitForSettlement(id: string, timeoutMs: number, signal?: AbortSignal, options?: { readOnly?: boolean }): Promise<AskRecord | undefined>
  /** The agent withdraws the ask: message updated, status `aborted`. Idempotent: a settled ask keeps its status. `by.key`: the API key that asked for it, which the audit names. */
  abort(id: string, by?: { key?: string }): Promise<AskRecord | undefined>
  /**
   * Relay: the request was settled outside Slack (the host's web UI, the
   * agent) or is gone; the message says so and loses its controls.
   * `undelivered`: answered in Slack, but the host no longer held it; the
   * person who answered is told privately.
   * `failed`: the host refused the answer; the message must not look answered.
   */
  closeElsewhere(id: string, how: CloseHow): Promise<AskRecord | undefined>
  /**
   * Relay: the host accepted the answer given in Slack. A relayed request's
   * message says the answer is being delivered from the click until then,
   * and who answered only from now on.
   */
  delivered(id: string): Promise<void>
  /**
   * Relay: a tool call's arguments arrived after its approval card was
   * posted; an open card is drawn again with them. False when the ask is no
   * longer open (nothing changes then).
   */
  showArguments(id: string, args: string): Promise<boolean>
  /**
   * The agent session ended (the harness disposed it, the host archived
   * it): its code channel, if it has one, is archived with a summary shared
   * back in the plan card's thread (decision 0078). Idempotent, from any
   * instance on the same store; rejects only when Slack or the store fails.
   * Optional: a bridge made by hand (a test's fake) need not end sessions.
   * `door`: whose session it is (decision 0090): the library's and the
   * plugin's own by default; the relay names its host. Another door's
   * session with the same id is never touched.
   */
  sessionEnded?(sessionId: string, door?: AskDoor): Promise<SessionEndOutcome>
  /** Every settlement, in this process, after it is stored (service logs, relay replies). */
  onSettled(listener: (record: AskRecord) => void): () => void
  /** Whether Slack is reachable now. */
  health(): SlackHealth
  /** Posts queued or in flight per channel (paced to Slack's rate), for `/metrics`. */
  postsWaiting?(): ReadonlyMap<string, number>
  /** Settled cards still showing their controls because their updates keep failing (retried until they land), for `/metrics`. */
  stuckCards?(): number
  /** Audit events waiting for the store to be reachable again, for `/metrics`. */
  auditEventsWaiting?(): number
  /** HTTP mode when the bridge listens itself: the URL to give Slack (interactivity and options-load). */
  readonly slackEventsUrl?: string
  /** HTTP mode with `listen: false`: Slack's requests go here. */
  readonly slackRequestListener?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
  /** The store holding the asks. */
  readonly store: AskStore
  /**
   * Stops: open asks owned by a library are withdrawn (message updated,
   * `ASK_ABORTED`); a service's asks stay open in the durable store unless
   * `withdrawOpen` is true. Sockets closed, timers cleared.
   */
  stop(options?: { withdrawOpen?: boolean }): Promise<void>
}
