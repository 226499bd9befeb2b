/**
 * Plan reviews in the agent session's code channel (decision 0073): the
 * card stays in the approval channel (one tap to approve or dismiss, quorum,
 * reminders, Home tab and audit as ever); its plan also goes into a canvas
 * in the session's code channel, where reviewers comment on the passages
 * they mean, and Request changes carries those threads to the agent. A
 * revised plan in the same session rewrites the same canvas, so threads on
 * unchanged steps stay on them. Anything Slack refuses leaves the review as
 * the card and its thread, as before, said once in the log.
 */
import { escapeMrkdwn, shownText } from '../../../blocks/text.js'
import type { Logger } from '../../log/logger.js'
import { describeOutcome } from '../describe-outcome.js'
import type { CodeChannelPort, ContextItem } from '../../slack/code-channel-port.js'
import { SlackCallError } from '../../slack/slack-call-error.js'
import type { MessageContent, SlackPort } from '../../slack/slack-port.js'
import { doorOf, type AskRecord, type QuotedWords } from '../../store/ask-record.js'
import { answerersComments, canvasMarkdown, feedbackWithThreads } from './canvas-text.js'
import { slackSessionId, type SessionScope } from './session-scope.js'

/** `auto`: use code channels when Slack lets us (the default); `off`: plan reviews stay in the card's thread. */
export type CodeChannelMode = 'auto' | 'off'
export const CODE_CHANNEL_MODES: readonly CodeChannelMode[] = ['auto', 'off']

/** The one view a session's plan lives in: every plan review of the session rewrites it. */
export const PLAN_VIEW_KEY = 'dsh-slack/plan'

/** Slack's answers that mean "not here, not now": the review falls back for the rest of the run. */
const UNAVAILABLE = new Set(['missing_scope', 'not_allowed_token_type', 'unknown_method', 'feature_not_enabled', 'not_allowed', 'restricted_action', 'team_access_not_granted', 'invalid_origin', 'is_externally_shared', 'channel_is_shared'])

/** Request changes as the agent receives it, and whose words it carries besides the reviewer's. */
export interface ReviewFeedback {
  text: string
  /** Absent when no canvas was read (none placed, unreadable): the text is the reviewer's alone. */
  quoted?: QuotedWords
}

/** Where a review's plan is. */
export interface PlacedPlan {
  channel: string
  canvasId: string
}

export interface PlanCanvasOptions {
  port: CodeChannelPort
  slack: Pick<SlackPort, 'postMessage'>
  logger: Logger
  mode: CodeChannelMode
  /** A person's name for the agent's feedback (their id when unknown). */
  nameOf?: (userId: string) => Promise<string | undefined>
}

/** A plan review with what a code channel needs: its plan, its card, and the session's scope (decision 0090). */
export interface PlanReview {
  plan: string
  card: { channel: string; ts: string }
  scope: SessionScope
  /** The `session_id` of its code channel (slackSessionId): the key this process keeps the session's channel under. */
  sessionId: string
}

/** The plan review a record is, when it has what a code channel needs: its plan, its session, its card. */
export function reviewOf(record: AskRecord): PlanReview | undefined {
  const [only, ...more] = record.questions
  if (record.kind !== 'question' || more.length > 0 || only?.intent?.kind !== 'plan-review') return undefined
  const session = record.agent?.id
  if (!session || !record.message || !only.detail) return undefined
  const card = { channel: record.message.channel, ts: record.message.ts }
  const scope = { door: doorOf(record), channel: card.channel, session }
  return { plan: only.detail, card, scope, sessionId: slackSessionId(scope) }
}

/** How a settled review ended, for its code channel: changes requested, approved, or the outcome as the log says it. */
export function reviewOutcome(record: AskRecord): string {
  const { outcome, answer } = record.settlement!
  const [item] = answer?.answers ?? []
  if (outcome.kind === 'answered') {
    const by = describeOutcome(outcome).replace(/^answered by /, '')
    if (item?.custom !== undefined) return `Changes requested by ${by}`
    const approve = record.questions[0]?.intent?.kind === 'plan-review' ? record.questions[0].intent.approve : undefined
    if (approve !== undefined && item?.selected.includes(approve)) return `Plan approved by ${by}`
  }
  return `Plan review ${describeOutcome(outcome)}`
}

/** A message of dsh-slack's own words (mrkdwn, already escaped where it quotes anyone). */
export function note(mrkdwn: string): MessageContent {
  return { text: mrkdwn, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: mrkdwn } }] }
}

/** The name asked for (Slack names a channel with an origin from its message and may retitle it). */
export function channelName(record: AskRecord, session: string): string {
  return `plan ${shownText(record.agent?.title ?? session)}`.slice(0, 80)
}

/** The context bar: the agent's own words, shown as every card shows them (invisible characters by code point). */
function contextBar(record: AskRecord, session: string): ContextItem[] {
  const items: ContextItem[] = []
  if (record.agent?.cwd) items.push({ key: 'cwd', label: shownText(record.agent.cwd).slice(0, 128), icon: 'folder' })
  items.push({ key: 'session', label: shownText(session).slice(0, 128), icon: 'terminal' })
  return items
}

export class PlanCanvases {
  /** Why code channels are not used in this run, once known (said once in the log). */
  #unavailable: string | undefined
  readonly #placed = new Map<string, Promise<PlacedPlan | undefined>>()
  /** Each session's code channel, as this process placed or found it, by its scoped `session_id` (never the agent's id alone). */
  readonly #channels = new Map<string, string>()
  /** Scoped sessions whose code channel this process archived: their later reviews stay on the card. */
  readonly #ended = new Set<string>()

  /** Whether the operator's "off" has been said in the log (once, at the first review it applies to). */
  #saidOff = false

  constructor(private readonly options: PlanCanvasOptions) {
    if (options.mode === 'off') this.#unavailable = 'turned off (codeChannels: off, DSH_SLACK_CODE_CHANNELS=off)'
  }

  /** Why plan reviews stay in the card's thread in this run, or undefined while code channels are in use. */
  get unavailable(): string | undefined {
    return this.#unavailable
  }

  /** An open ask (once posted, and on every approval counted): a plan review with a session gets its canvas, once. */
  opened(record: AskRecord): void {
    if (this.#placed.has(record.id)) return
    if (this.#unavailable !== undefined) {
      this.#sayOff(record)
      return
    }
    const review = reviewOf(record)
    if (!review) return
    if (this.#ended.has(review.sessionId)) {
      this.options.logger.info(`ask ${record.id}: the plan stays in the card's thread: session ${review.scope.session} ended and its code channel is archived`)
      return
    }
    this.#placed.set(record.id, this.#place(record.id, review, record))
  }

  /**
   * Turned off by the operator: said once, as info, at the first review that
   * would have had a canvas (decision 0076). Nothing is wrong, so it is no
   * warning (the plugin's stderr is for problems); a refusal by Slack is
   * said as a warning where it happens.
   */
  #sayOff(record: AskRecord): void {
    if (this.#saidOff || this.options.mode !== 'off' || !reviewOf(record)) return
    this.#saidOff = true
    this.options.logger.info(`plan reviews stay in the card's thread for this run: code channels are ${this.#unavailable}`)
  }

  /** The code channel of a scoped session (its `session_id`), if this process placed or found one. */
  channelOf(sessionId: string): string | undefined {
    return this.#channels.get(sessionId)
  }

  /** The scoped session's code channel is archived: later plan reviews of it stay the card and its thread. */
  sessionArchived(sessionId: string): void {
    this.#ended.add(sessionId)
    this.#channels.delete(sessionId)
  }

  /** Resolves once the review's canvas is in place (or given up): tests and Request changes wait on it. */
  async placed(askId: string): Promise<PlacedPlan | undefined> {
    return this.#placed.get(askId)
  }

  /**
   * Request changes as the agent reads it: the typed feedback with the
   * canvas's open comment threads, keeping only the comments of people
   * `mayAnswer` allows, the same check as a click (decision 0091): a canvas
   * is open to everyone in its code channel, an ask is not. `quoted` says
   * whose comments went and whose were left out, for the reviewer and the
   * audit. If the threads cannot be read, the typed feedback goes alone
   * (and the log says so): it is never lost.
   */
  async feedback(record: AskRecord, typed: string, mayAnswer: (userId: string) => Promise<boolean>): Promise<ReviewFeedback> {
    try {
      const placed = this.#placed.has(record.id) ? await this.#placed.get(record.id) : await this.#locate(record)
      if (!placed) return { text: typed }
      const threads = await this.options.port.openThreads(placed.channel, placed.canvasId)
      const ids = [...new Set(threads.flatMap((thread) => thread.comments.map((comment) => comment.userId)))]
      // Fails closed: a check that throws leaves the comment out.
      const allowed = new Map(await Promise.all(ids.map(async (id) => [id, await mayAnswer(id).catch(() => false)] as const)))
      const kept = answerersComments(threads, allowed)
      if (kept.leftOut.length > 0) this.options.logger.info(`ask ${record.id}: left out of the agent's feedback the canvas comments of ${kept.leftOut.map((person) => `${person.userId} (${person.comments})`).join(', ')}: they may not answer it`)
      const names = new Map(await Promise.all(kept.from.map(async (id) => [id, await this.options.nameOf?.(id).catch(() => undefined)] as const)))
      const text = feedbackWithThreads(typed, kept.threads, (id) => (names.get(id) ? `${names.get(id)} (${id})` : id))
      return { text, quoted: { from: kept.from, leftOut: kept.leftOut } }
    } catch (error) {
      this.options.logger.warn(`ask ${record.id}: could not read the plan canvas's comments; the agent gets the typed feedback only: ${error instanceof Error ? error.message : String(error)}`)
      return { text: typed }
    }
  }

  /** A settled review: the code channel is told how it ended (the session may go on with a revised plan). */
  settled(record: AskRecord): void {
    const outcome = record.settlement ? reviewOutcome(record) : undefined
    if (outcome === undefined) return
    const placed = this.#placed.get(record.id)
    if (!placed) return
    this.#placed.delete(record.id)
    // A review withdrawn as its session ends: the channel is archived, its summary already said it was left open.
    const review = reviewOf(record)
    if (review !== undefined && this.#ended.has(review.sessionId)) return
    void placed
      .then((where) => where && this.options.slack.postMessage(where.channel, note(escapeMrkdwn(`${outcome}.`))))
      .catch((error: unknown) => {
        const archived = error instanceof SlackCallError && error.slackError === 'is_archived'
        this.options.logger[archived ? 'debug' : 'warn'](`ask ${record.id}: could not post the outcome in its code channel: ${error instanceof Error ? error.message : String(error)}`)
      })
  }

  /**
   * A review this process did not place (another instance's card, or one
   * from before a restart): the session's channel (Slack returns the
   * existing one) and its plan view, if it has one.
   */
  async #locate(record: AskRecord): Promise<PlacedPlan | undefined> {
    const review = this.#unavailable === undefined ? reviewOf(record) : undefined
    if (!review) return undefined
    const channel = await this.options.port.create({ sessionId: review.sessionId, name: channelName(record, review.scope.session), origin: review.card })
    const canvasId = await this.options.port.canvasOfView(channel, PLAN_VIEW_KEY)
    if (canvasId) this.#channels.set(review.sessionId, channel)
    return canvasId ? { channel, canvasId } : undefined
  }

  async #place(askId: string, review: PlanReview, record: AskRecord): Promise<PlacedPlan | undefined> {
    const { port, slack, logger } = this.options
    const markdown = canvasMarkdown(review.plan)
    try {
      const channel = await port.create({ sessionId: review.sessionId, name: channelName(record, review.scope.session), origin: review.card })
      const existing = await port.canvasOfView(channel, PLAN_VIEW_KEY)
      let canvasId: string
      if (existing) {
        // A revised plan: the same canvas, rewritten, so threads on unchanged steps stay where they were.
        await port.setCanvasContent(channel, existing, markdown)
        canvasId = existing
      } else {
        canvasId = await port.createCanvas('Plan', markdown)
        await port.showCanvas(channel, { viewKey: PLAN_VIEW_KEY, canvasId, name: 'Plan' })
      }
      await port.setContextBar(channel, contextBar(record, review.scope.session)).catch((error: unknown) => logger.warn(`ask ${askId}: the code channel's context bar was not set: ${error instanceof Error ? error.message : String(error)}`))
      await slack.postMessage(review.card.channel, note(`The plan is also in a canvas in <#${channel}>: comment on the steps you mean there, then use Request changes on this card.`), review.card.ts)
      this.#channels.set(review.sessionId, channel)
      logger.info(`ask ${askId}: plan review in code channel ${channel} (canvas ${canvasId})`)
      return { channel, canvasId }
    } catch (error) {
      const code = error instanceof SlackCallError ? error.slackError : undefined
      if (code !== undefined && UNAVAILABLE.has(code)) {
        if (this.#unavailable === undefined) {
          this.#unavailable = `Slack refused ${error instanceof SlackCallError ? error.method : 'a code-channel call'} with ${code}`
          logger.warn(`plan reviews stay in the card's thread for this run: ${this.#unavailable}${code === 'missing_scope' ? ' (add code_channels:manage and canvases:write to the app and reinstall it)' : ''}`)
        }
      } else if (code === 'is_archived') {
        // The session ended (its channel archived, perhaps by another instance) and then sent a plan again (decision 0078).
        this.#ended.add(review.sessionId)
        logger.warn(`ask ${askId}: the plan stays in the card's thread: session ${review.scope.session}'s code channel is archived (the session had ended)`)
      } else {
        logger.warn(`ask ${askId}: the plan stays in the card's thread: ${error instanceof Error ? error.message : String(error)}`)
      }
      return undefined
    }
  }
}
