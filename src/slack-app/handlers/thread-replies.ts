import { otherTextError } from '../../../blocks/index.js'
import type { AskRecord } from '../../store/ask-record.js'
import { threadReplyEvent } from '../../slack/payloads.js'
import { answersWith, mayAnswerAsk, openAskFor, settleAnswer, tell, type InteractionDeps } from './context.js'

/** What a reply in a card's thread is to its ask. */
type ReplyMeaning = { as: 'other'; question: string } | { as: 'feedback' } | { as: 'nothing'; card: 'batch' | 'approval' }

function meaningOf(record: AskRecord): ReplyMeaning {
  if (record.kind === 'approval') return { as: 'nothing', card: 'approval' }
  const [only, ...more] = record.questions
  if (!only || more.length > 0) return { as: 'nothing', card: 'batch' }
  return only.intent?.kind === 'plan-review' ? { as: 'feedback' } : { as: 'other', question: only.question }
}

/** Slack escapes `&`, `<` and `>` in a message's text; the agent gets what the person typed. */
function typed(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
}

/** The open ask whose card is the parent of this thread, if any. */
async function askOfThread(deps: InteractionDeps, channel: string, threadTs: string): Promise<AskRecord | undefined> {
  // A thread reply is rare next to clicks, and the open asks are capped: a scan beats a new index in every store.
  const pending = await deps.lifecycle.store.listPending()
  return pending.find((record) => record.message?.channel === channel && record.message.ts === threadTs)
}

/**
 * A person's reply in the thread of an open ask's card (decision 0069): on a
 * single question it is the Other answer, on a plan review the Request
 * changes feedback, exactly as typed into those boxes would be; the person
 * is told privately, in the thread, what was recorded. Someone who may not
 * answer, a batch or a tool approval (which a sentence cannot answer), or
 * text no box would take, is refused privately and nothing changes. A reply
 * in any other thread, or after the ask closed, is conversation: ignored.
 */
export async function handleThreadReply(deps: InteractionDeps, body: unknown): Promise<void> {
  const parsed = threadReplyEvent.safeParse(body)
  if (!parsed.success) return
  const reply = parsed.data
  const found = await askOfThread(deps, reply.channel, reply.thread_ts)
  if (!found) return
  const user = { id: reply.user }
  const here = { user: reply.user, channel: reply.channel, threadTs: reply.thread_ts }
  const record = await openAskFor(deps, found.id, user, reply.channel, { threadTs: reply.thread_ts })
  if (!record) return
  const meaning = meaningOf(record)
  if (meaning.as === 'nothing') return tell(deps, here, { kind: 'reply-not-an-answer', card: meaning.card })
  const text = typed(reply.text)
  const problem = otherTextError(deps.settings.locale, text)
  if (problem) return tell(deps, here, { kind: 'reply-refused', problem })
  deps.logger.info(`ask ${record.id}: ${reply.user} answered by a reply in the card's thread (${meaning.as})`)
  const { text: custom, quoted } = meaning.as === 'feedback' && deps.planCanvases ? await deps.planCanvases.feedback(record, text.trim(), mayAnswerAsk(deps, record)) : { text: text.trim(), quoted: undefined }
  // The event names only the id; a click's payload also has the username, which answeredBy and the card's lines show.
  const name = await deps.slack.userName?.(reply.user).catch(() => undefined)
  await settleAnswer(deps, record, name ? { ...user, name } : user, answersWith(record, 0, { selected: [], custom }), reply.channel, {
    threadTs: reply.thread_ts,
    ...(quoted ? { quoted } : {}),
    won: (target) => tell(deps, target, meaning.as === 'other' ? { kind: 'reply-recorded', as: 'other', question: meaning.question } : { kind: 'reply-recorded', as: 'feedback' }),
  })
}
