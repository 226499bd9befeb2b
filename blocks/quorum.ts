/**
 * The live line of a quorum on an open card: "1 of 2 approvals: @alice —
 * waiting for one more", or, before anyone approved, how many it needs.
 */
import type { ContextBlock } from '@slack/types'
import { personMrkdwn } from './context.js'
import { wordsFor } from './i18n.js'
import { contextLine } from './layout.js'
import { escapeMrkdwn } from './text.js'
import type { Locale, QuorumView } from './view.js'

export function quorumLine(locale: Locale, quorum: QuorumView): ContextBlock {
  const words = wordsFor(locale)
  if (quorum.approvals.length === 0) return contextLine(`:busts_in_silhouette: ${escapeMrkdwn(words.quorumNeeds(quorum.required))}`)
  const who = quorum.approvals.map(personMrkdwn).join(', ')
  return contextLine(`:busts_in_silhouette: ${words.quorumProgress(quorum.approvals.length, quorum.required, who)}`)
}
