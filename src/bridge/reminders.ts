import { nudgeMessage } from '../../blocks/index.js'
import type { Logger } from '../log/logger.js'
import type { AskRecord } from '../store/ask-record.js'
import type { ScheduledJob } from '../store/team-records.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import type { SlackPort } from '../slack/slack-port.js'
import type { AskLifecycle } from './ask-lifecycle.js'
import { mentionFor, type ViewSettings } from './ask-view.js'

const USER_ID = /^[UW][A-Z0-9]+$/

export interface RemindersOptions {
  lifecycle: AskLifecycle
  slack: SlackPort
  pacer: ChannelPacer
  settings: ViewSettings
  logger: Logger
  now: () => number
}

/**
 * Sends the reminders and escalations that fall due. Every instance polls;
 * the store hands each job to exactly one of them (claimDueJobs), and a
 * settled ask has no jobs left, so an answer cancels what is still scheduled.
 * A job claimed by an instance that dies before sending is lost rather than
 * sent twice: a duplicate ping is worse than a missing reminder.
 */
export class Reminders {
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined

  constructor(private readonly options: RemindersOptions) {}

  start(intervalMs: number): void {
    this.#timer ??= setInterval(() => void this.runDue(), intervalMs)
    this.#timer.unref()
  }

  /** Sends whatever is due now; one run at a time per instance. */
  runDue(): Promise<void> {
    this.#running ??= this.#run().finally(() => (this.#running = undefined))
    return this.#running
  }

  async #run(): Promise<void> {
    let jobs: ScheduledJob[]
    try {
      jobs = await this.options.lifecycle.store.claimDueJobs(this.options.now())
    } catch (error) {
      this.options.logger.warn(`could not look for due reminders: ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    for (const job of jobs) {
      const record = await this.options.lifecycle.store.get(job.askId).catch(() => undefined)
      if (!record || record.status !== 'pending' || !record.message) continue
      try {
        if (job.kind === 'remind') await this.#remind(record)
        else await this.#escalate(record)
      } catch (error) {
        this.options.logger.error(`ask ${record.id}: the ${job.kind === 'remind' ? 'reminder' : 'escalation'} could not be sent: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }

  /**
   * One reply in the question's thread, mentioning the approvers the
   * operator named, or DSH_SLACK_MENTION. Approvers a request picked are
   * never pinged unless the policy names them too (`notify`).
   */
  async #remind(record: AskRecord): Promise<void> {
    const { slack, pacer, settings, lifecycle } = this.options
    const message = record.message!
    const mention = mentionFor(record, settings)
    const notify = record.policy?.approvers ? (record.policy.notify ?? []) : mention ? [mention] : []
    const content = nudgeMessage({ locale: settings.locale, kind: 'reminder', notify, waitedMs: this.options.now() - record.createdAt, ...(message.permalink ? { permalink: message.permalink } : {}) })
    const posted = await pacer.run(message.channel, () => slack.postMessage(message.channel, content, message.ts))
    await lifecycle.recordEvent({ askId: record.id, type: 'reminded', at: this.options.now(), detail: { channel: posted.channel, ts: posted.ts, notify } })
  }

  /**
   * A user gets a DM: a line with the link, then the question with its
   * controls (a click there settles the same ask; the copy is updated with
   * the channel message). A user group is mentioned in the thread.
   */
  async #escalate(record: AskRecord): Promise<void> {
    const { slack, pacer, settings, lifecycle } = this.options
    const to = record.policy!.escalateTo!
    const message = record.message!
    const content = nudgeMessage({ locale: settings.locale, kind: 'escalation', notify: [to], waitedMs: this.options.now() - record.createdAt, ...(message.permalink ? { permalink: message.permalink } : {}) })
    if (!USER_ID.test(to)) {
      const posted = await pacer.run(message.channel, () => slack.postMessage(message.channel, content, message.ts))
      await lifecycle.recordEvent({ askId: record.id, type: 'escalated', at: this.options.now(), detail: { to, channel: posted.channel, ts: posted.ts } })
      return
    }
    const dm = await slack.openDirectMessage(to)
    await pacer.run(dm, () => slack.postMessage(dm, content))
    const card = await lifecycle.openCard(record)
    const copy = await pacer.run(dm, () => slack.postMessage(dm, card))
    await lifecycle.recordEvent({ askId: record.id, type: 'escalated', at: this.options.now(), detail: { to, channel: copy.channel, ts: copy.ts, copy: true } })
    // Settled while we posted: the copy must not keep live controls.
    const current = await lifecycle.store.get(record.id)
    if (current?.settlement && current.status !== 'pending') await lifecycle.showCopiesSettled(current)
  }

  /** Stops polling and lets a run in progress finish (the store closes after). */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
    await this.#running
  }
}
