/**
 * The replies that bring a waiting question back to people's attention: a
 * reminder in its thread, and an escalation (a DM to one person, or a
 * user-group mention in the thread). Who is mentioned comes from
 * configuration (trusted ids only, through `mentionOf`); the link is Slack's
 * own permalink to the question.
 */
import type { KnownBlock } from '@slack/types'
import { mentionOf } from './context.js'
import { wordsFor } from './i18n.js'
import type { MessagePayload } from './layout.js'
import { LIMIT } from './limits.js'
import { escapeMrkdwn, fitEscaped, isSafeUrl } from './text.js'
import type { Locale } from './view.js'

/** What a reminder or escalation says. */
export interface NudgeView {
  locale: Locale
  kind: 'reminder' | 'escalation'
  /** User (U…/W…) and user-group (S…) ids to mention; anything else mentions no one. */
  notify: string[]
  /** How long the question has waited, in ms. */
  waitedMs: number
  /** Slack's permalink to the question, when known. */
  permalink?: string
}

export function nudgeMessage(view: NudgeView): MessagePayload {
  const words = wordsFor(view.locale)
  const who = view.notify.map(mentionOf).filter((mention): mention is string => mention !== undefined).join(' ')
  const link = view.permalink !== undefined && isSafeUrl(view.permalink) ? `<${view.permalink}|${escapeMrkdwn(words.openMessage)}>` : escapeMrkdwn(words.openMessage)
  const waited = escapeMrkdwn(words.age(view.waitedMs))
  const text = view.kind === 'reminder' ? words.reminder(who, waited, link) : words.escalation(who, waited, link)
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `:bell: ${text.trim()}` } }]
  return { text: fitEscaped(text.trim(), LIMIT.notificationText), blocks }
}
