import {
  approvalMessage,
  approvalOverflow,
  questionMessage,
  settledApprovalMessage,
  settledMessage,
} from '../../blocks/index.js'
import type { Outcome } from '../../blocks/view.js'
import type { AskRecord } from '../store/ask-record.js'
import type { Approval } from '../store/team-records.js'
import type { MessageContent } from '../slack/slack-port.js'
import { approvalViewOf, askViewOf, type ViewSettings } from './ask-view.js'
import type { BodyCache } from './body-cache.js'

/** Everything one ask posts: the message, its thread continuation, maybe a file. */
export interface PostPlan {
  message: MessageContent
  thread: MessageContent[]
  file?: { filename: string; title: string; content: string }
}

/** The first post of an ask, by its kind; with `bodies`, an ask's body is rendered once for all its renders. */
export function renderOpen(record: AskRecord, settings: ViewSettings, approvals: Approval[] = [], bodies?: BodyCache): PostPlan {
  if (record.kind === 'approval') {
    const view = approvalViewOf(record, settings, approvals)
    const overflow = approvalOverflow(view)
    return { message: approvalMessage(view), thread: overflow.thread, ...(overflow.file ? { file: overflow.file } : {}) }
  }
  const view = askViewOf(record, settings, approvals)
  const rendered = questionMessage(view, bodies?.body(view))
  const plan: PostPlan = { message: rendered.message, thread: rendered.thread }
  if (rendered.file) plan.file = rendered.file
  return plan
}

/** The message that replaces the controls once the ask is settled. */
export function renderSettled(record: AskRecord, outcome: Outcome, settings: ViewSettings, bodies?: BodyCache): MessageContent {
  if (record.kind === 'approval') return settledApprovalMessage(approvalViewOf(record, settings), outcome)
  const view = askViewOf(record, settings)
  return settledMessage(view, outcome, bodies?.body(view))
}
