/**
 * An agent session ended (decision 0078): its code channel, when it has
 * one, gets a last message saying how its plan reviews ended, and is
 * archived with that message as its summary, which Slack shares back in
 * the origin card's thread. Slack's lifecycle: "archive the channel when
 * the session is complete". The one home of a session's end: the plugin
 * (the harness's `session/disposed`), the relay (the host's archived
 * sessions) and the library call `bridge.sessionEnded`, which lands here.
 */
import { escapeMrkdwn } from '../../../blocks/text.js'
import type { Logger } from '../../log/logger.js'
import type { CodeChannelPort } from '../../slack/code-channel-port.js'
import { SlackCallError } from '../../slack/slack-call-error.js'
import type { SlackPort } from '../../slack/slack-port.js'
import type { AskRecord } from '../../store/ask-record.js'
import type { AskStore } from '../../store/ask-store.js'
import { channelName, note, PLAN_VIEW_KEY, reviewOf, reviewOutcome, type PlanCanvases } from './plan-canvases.js'

/** How far back a session's asks are read for its last plan review: a session asks a few questions between two plans. */
const ASKS_READ = 50

/** What `sessionEnded` did. */
export type SessionEndOutcome =
  /** Archived now, with its summary. */
  | { kind: 'archived'; channel: string; summaryTs: string }
  /** Someone (another instance, a person) archived it first: nothing to do. */
  | { kind: 'already-archived'; channel: string }
  /** The session never had a plan review with a card: no code channel of ours. */
  | { kind: 'no-code-channel' }
  /** Code channels are not used in this run. */
  | { kind: 'off'; why: string }

export interface SessionEndOptions {
  port: CodeChannelPort
  slack: Pick<SlackPort, 'postMessage'>
  store: Pick<AskStore, 'newestOfAgent'>
  canvases: PlanCanvases
  logger: Logger
}

const ALREADY = new Set(['already_archived', 'is_archived'])

function slackError(error: unknown): string | undefined {
  return error instanceof SlackCallError ? error.slackError : undefined
}

/** The last line of a code channel: how the session's last plan review ended. */
export function sessionSummary(last: AskRecord): string {
  const outcome = last.settlement ? reviewOutcome(last) : 'Plan review left open'
  return `The agent session ended. Its last plan review: ${outcome}.`
}

export class SessionEnds {
  /** Ends in flight, per session: a repeated signal (a replayed frame, two listeners) shares the first. */
  readonly #ending = new Map<string, Promise<SessionEndOutcome>>()

  constructor(private readonly options: SessionEndOptions) {}

  sessionEnded(session: string): Promise<SessionEndOutcome> {
    let ending = this.#ending.get(session)
    if (!ending) {
      ending = this.#end(session).finally(() => this.#ending.delete(session))
      this.#ending.set(session, ending)
    }
    return ending
  }

  async #end(session: string): Promise<SessionEndOutcome> {
    const { port, slack, store, canvases, logger } = this.options
    if (canvases.unavailable !== undefined) return { kind: 'off', why: canvases.unavailable }
    // The session's last plan review with a card: the origin its channel was created from (any instance's, from the shared store).
    const last = (await store.newestOfAgent(session, ASKS_READ)).find((record) => reviewOf(record) !== undefined)
    if (!last) return { kind: 'no-code-channel' }
    const review = reviewOf(last)!
    let channel = canvases.channelOf(session)
    if (channel === undefined) {
      // Idempotent per session id: the existing channel (archived or not). Only reached when a review
      // of this session had a card, so at worst it creates the channel a failed placement left out.
      channel = await port.create({ sessionId: session, name: channelName(last, session), origin: review.card })
      if ((await port.canvasOfView(channel, PLAN_VIEW_KEY)) === undefined) logger.warn(`session ${session}: its code channel ${channel} has no plan canvas; archiving it all the same`)
    }
    let summaryTs: string
    try {
      summaryTs = (await slack.postMessage(channel, note(escapeMrkdwn(sessionSummary(last))))).ts
      await port.archive(channel, summaryTs)
    } catch (error) {
      if (!ALREADY.has(slackError(error) ?? '')) throw error
      canvases.sessionArchived(session)
      return { kind: 'already-archived', channel }
    }
    canvases.sessionArchived(session)
    logger.info(`session ${session} ended: code channel ${channel} archived, its summary shared in the card's thread`)
    return { kind: 'archived', channel, summaryTs }
  }
}
