import { askKindOf } from './ask-policy.js'
import type { AskRecord, Settlement } from '../store/ask-record.js'
import type { NewAskEvent } from '../store/team-records.js'

/** The `posted` event: where, and what was asked (audit outputs only; never logged). */
export function postedEvent(record: AskRecord, at: number): NewAskEvent {
  // The kind as GET /v1/asks, the policy's rules and `policy explain` name it (question, plan-review, tool-approval).
  const detail: Record<string, unknown> = { kind: askKindOf(record), target: record.target }
  if (record.message) Object.assign(detail, { channel: record.message.channel, ts: record.message.ts, ...(record.message.permalink ? { permalink: record.message.permalink } : {}) })
  if (record.kind === 'question') detail.questions = record.questions.map((q) => ({ id: q.id, question: q.question, ...(q.header === undefined ? {} : { header: q.header }) }))
  if (record.approval) detail.tool = record.approval.toolName
  if (record.agent) detail.agent = record.agent
  if (record.policy) detail.policy = record.policy
  return { askId: record.id, type: 'posted', at, detail }
}

/** The event a settlement records: who did what, and the answer or decision. */
export function settlementEvent(id: string, settlement: Settlement): NewAskEvent {
  const outcome = settlement.outcome
  const event: NewAskEvent = { askId: id, type: 'failed', at: outcome.at }
  const detail: Record<string, unknown> = { status: settlement.status }
  switch (outcome.kind) {
    case 'answered':
      event.type = 'answered'
      event.by = outcome.by
      detail.answer = settlement.answer ?? { answers: outcome.answers }
      // Whose words went to the agent: the answerer's, and those it quoted (a canvas's comments); whose were left out.
      if (settlement.quoted) Object.assign(detail, { wordsFrom: [outcome.by.id, ...settlement.quoted.from.filter((id) => id !== outcome.by.id)], leftOut: settlement.quoted.leftOut })
      break
    case 'decided':
      event.type = 'decided'
      event.by = outcome.by
      detail.decision = outcome.decision
      break
    case 'dismissed':
      event.type = 'dismissed'
      event.by = outcome.by
      break
    case 'aborted':
      event.type = outcome.kind
      // The ask's own key is the event's `key`; this is the key whose request withdrew it (an admin key may withdraw another's).
      if (outcome.byKey !== undefined) detail.byKey = outcome.byKey
      break
    case 'expired':
    case 'stopped':
      event.type = outcome.kind
      break
    case 'settled-elsewhere':
      event.type = 'settled-elsewhere'
      detail.how = outcome.how
      break
    case 'failed':
      detail.reason = outcome.reason
      break
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
  if (settlement.approvals) detail.approvedBy = settlement.approvals.map((approval) => approval.by)
  if (settlement.error) detail.error = settlement.error
  event.detail = detail
  return event
}
