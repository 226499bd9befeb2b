import type { ApprovalView, AskView, Locale } from '../../blocks/view.js'
import type { AskRecord } from '../store/ask-record.js'

/** What the renderers need beyond the record: the bridge's own settings. */
export interface ViewSettings {
  locale: Locale
  mention?: string
}

/** The renderers' view of a question ask. */
export function askViewOf(record: AskRecord, settings: ViewSettings): AskView {
  const view: AskView = {
    askId: record.id,
    locale: settings.locale,
    questions: record.questions.map((question) => ({ ...question, options: question.options.map((option) => ({ ...option })) })),
  }
  if (record.agent) view.agent = record.agent
  if (settings.mention) view.mention = settings.mention
  if (record.expiresAt !== undefined) view.expiresAt = record.expiresAt
  return view
}

/** The renderers' view of a tool approval ask. */
export function approvalViewOf(record: AskRecord, settings: ViewSettings): ApprovalView {
  const approval = record.approval ?? { toolName: 'unknown tool' }
  const view: ApprovalView = { askId: record.id, locale: settings.locale, toolName: approval.toolName }
  if (approval.reason !== undefined) view.reason = approval.reason
  if (approval.callId !== undefined) view.callId = approval.callId
  if (approval.arguments !== undefined) view.arguments = approval.arguments
  if (record.agent) view.agent = record.agent
  if (settings.mention) view.mention = settings.mention
  if (record.expiresAt !== undefined) view.expiresAt = record.expiresAt
  return view
}
