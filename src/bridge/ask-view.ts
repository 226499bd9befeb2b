import type { ApprovalView, AskView, Locale, QuorumView } from '../../blocks/view.js'
import type { AskRecord } from '../store/ask-record.js'
import type { Approval } from '../store/team-records.js'
import { hasQuorum, requiredApprovals } from './quorum.js'

/** What the renderers need beyond the record: the bridge's own settings. */
export interface ViewSettings {
  locale: Locale
  mention?: string
}

/** A quorum's progress, for asks that have one. */
function quorumOf(record: AskRecord, approvals: Approval[]): QuorumView | undefined {
  return hasQuorum(record) ? { required: requiredApprovals(record), approvals: approvals.map((approval) => approval.by) } : undefined
}

/** The renderers' view of a question ask (with the approvals so far, when it has a quorum). */
export function askViewOf(record: AskRecord, settings: ViewSettings, approvals: Approval[] = []): AskView {
  const view: AskView = {
    askId: record.id,
    locale: settings.locale,
    questions: record.questions.map((question) => ({ ...question, options: question.options.map((option) => ({ ...option })) })),
  }
  if (record.agent) view.agent = record.agent
  const mention = mentionFor(record, settings)
  if (mention) view.mention = mention
  if (record.expiresAt !== undefined) view.expiresAt = record.expiresAt
  const quorum = quorumOf(record, approvals)
  if (quorum) view.quorum = quorum
  return view
}

/** Who the ask's card notifies: its rule's own mention, else the bridge's. */
export function mentionFor(record: AskRecord, settings: ViewSettings): string | undefined {
  return record.policy?.mention ?? settings.mention
}

/** The renderers' view of a tool approval ask. */
export function approvalViewOf(record: AskRecord, settings: ViewSettings, approvals: Approval[] = []): ApprovalView {
  const approval = record.approval ?? { toolName: 'unknown tool' }
  const view: ApprovalView = { askId: record.id, locale: settings.locale, toolName: approval.toolName }
  if (approval.reason !== undefined) view.reason = approval.reason
  if (approval.callId !== undefined) view.callId = approval.callId
  if (approval.arguments !== undefined) view.arguments = approval.arguments
  if (record.agent) view.agent = record.agent
  const mention = mentionFor(record, settings)
  if (mention) view.mention = mention
  if (record.expiresAt !== undefined) view.expiresAt = record.expiresAt
  const quorum = quorumOf(record, approvals)
  if (quorum) view.quorum = quorum
  return view
}
