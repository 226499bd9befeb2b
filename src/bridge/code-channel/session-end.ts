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
import { doorColumns, OWN_DOOR, type AskDoor, type AskRecord } from '../../store/ask-record.js'
import type { AskStore } from '../../store/ask-store.js'
import { channelName, note, PLAN_VIEW_KEY, reviewOf, reviewOutcome, type PlanCanvases, type PlanReview } from './plan-canvases.js'

/** How far back a session's asks are read for its last plan review: a session asks a few questions between two plans. */
const ASKS_READ = 50

/** What `sessionEnded` did (for the newest plan review's channel, when the session asked in several). */
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
  /** Ends in flight, per door and session: a repeated signal (a replayed frame, two listeners) shares the first. */
  readonly #ending = new Map<string, Promise<SessionEndOutcome>>()

  constructor(private readonly options: SessionEndOptions) {}

  /**
   * `door`: who says the session ended, and so whose session it is: the
   * library and the harness plugin end their own (the default), the relay a
   * host's. The agent's session id alone never finds another door's code
   * channel (decision 0090).
   */
  sessionEnded(session: string, door: AskDoor = OWN_DOOR): Promise<SessionEndOutcome> {
    const key = JSON.stringify([doorColumns(door), session])
    let ending = this.#ending.get(key)
    if (!ending) {
      ending = this.#end(session, door).finally(() => this.#ending.delete(key))
      this.#ending.set(key, ending)
    }
    return ending
  }

  async #end(session: string, door: AskDoor): Promise<SessionEndOutcome> {
    const { store, canvases } = this.options
    if (canvases.unavailable !== undefined) return { kind: 'off', why: canvases.unavailable }
    // The session's last plan review with a card in each channel it asked in: the origin of that channel's
    // code channel (any instance's, from the shared store). Newest first, so the first seen per channel is its last.
    const last = new Map<string, { record: AskRecord; review: PlanReview }>()
    for (const record of await store.newestOfAgent(door, session, ASKS_READ)) {
      const review = reviewOf(record)
      if (review && !last.has(review.sessionId)) last.set(review.sessionId, { record, review })
    }
    if (last.size === 0) return { kind: 'no-code-channel' }
    // Every channel is tried; a failure is thrown once the others are done. The newest review's channel is the answer.
    const ends = await Promise.allSettled([...last.values()].map(({ record, review }) => this.#archive(record, review)))
    const failed = ends.find((end): end is PromiseRejectedResult => end.status === 'rejected')
    if (failed) throw failed.reason
    return (ends[0] as PromiseFulfilledResult<SessionEndOutcome>).value
  }

  async #archive(last: AskRecord, review: PlanReview): Promise<SessionEndOutcome> {
    const { port, slack, canvases, logger } = this.options
    const session = review.scope.session
    let channel = canvases.channelOf(review.sessionId)
    if (channel === undefined) {
      // Idempotent per session id: the existing channel (archived or not). Only reached when a review
      // of this session had a card, so at worst it creates the channel a failed placement left out.
      channel = await port.create({ sessionId: review.sessionId, name: channelName(last, session), origin: review.card })
      if ((await port.canvasOfView(channel, PLAN_VIEW_KEY)) === undefined) logger.warn(`session ${session}: its code channel ${channel} has no plan canvas; archiving it all the same`)
    }
    let summaryTs: string
    try {
      summaryTs = (await slack.postMessage(channel, note(escapeMrkdwn(sessionSummary(last))))).ts
      await port.archive(channel, summaryTs)
    } catch (error) {
      if (!ALREADY.has(slackError(error) ?? '')) throw error
      canvases.sessionArchived(review.sessionId)
      return { kind: 'already-archived', channel }
    }
    canvases.sessionArchived(review.sessionId)
    logger.info(`session ${session} ended: code channel ${channel} archived, its summary shared in the card's thread`)
    return { kind: 'archived', channel, summaryTs }
  }
}
