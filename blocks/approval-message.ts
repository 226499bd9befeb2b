/**
 * The tool approval card, for a relay of a harness host's tool permission
 * requests: which tool, why, what it would run (approval-arguments.ts), for
 * which session; Allow once or Reject. Settled: who decided, or that it was
 * decided elsewhere. The head is shared by both states, so a later line (a
 * quorum's progress) goes between the head and the actions.
 */
import type { KnownBlock, RichTextBlock } from '@slack/types'
import { approvalArgumentsBlocks } from './approval-arguments.js'
import { askContext } from './context.js'
import { wordButton } from './controls.js'
import { fallbackText } from './fallback-text.js'
import { encodeActionId } from './ids.js'
import { wordsFor } from './i18n.js'
import { contextLine, type MessagePayload } from './layout.js'
import { LIMIT } from './limits.js'
import { quorumLine } from './quorum.js'
import { statusLine } from './settled-message.js'
import { fitEscaped, fitMrkdwn, fitText, plain, shownText } from './text.js'
import type { ApprovalView, Outcome } from './view.js'

/** Context, header, the tool, its arguments and the reason: shared by the open and the settled card. */
function approvalHead(view: ApprovalView): KnownBlock[] {
  const words = wordsFor(view.locale)
  const tool: RichTextBlock = {
    type: 'rich_text',
    elements: [
      {
        type: 'rich_text_section',
        elements: [
          { type: 'text', text: `${words.tool}: `, style: { bold: true } },
          { type: 'text', text: fitText(shownText(view.toolName).trim() === '' ? '–' : shownText(view.toolName), LIMIT.contextField), style: { code: true } },
        ],
      },
    ],
  }
  // What it would run comes first, right under the tool: that is what the person decides on.
  const blocks: KnownBlock[] = [askContext(view.locale, view.agent, view.mention, view.expiresAt), { type: 'header', text: plain(words.toolApproval, LIMIT.headerText) }, tool, ...approvalArgumentsBlocks(view)]
  if (view.reason !== undefined && view.reason.trim() !== '') {
    // The reason is shown literally, shortened visibly.
    blocks.push({ type: 'rich_text', elements: [{ type: 'rich_text_quote', elements: [{ type: 'text', text: fitText(shownText(view.reason), LIMIT.richTextElementText) }] }] })
  }
  if (view.callId !== undefined && view.callId.trim() !== '') blocks.push(contextLine(`${words.callId} \`${fitMrkdwn(view.callId.replace(/`/g, 'ˋ'), LIMIT.contextField)}\``))
  return blocks
}

/** An open tool approval: Allow once (primary) and Reject (danger). */
export function approvalMessage(view: ApprovalView): MessagePayload {
  const words = wordsFor(view.locale)
  const actions: KnownBlock = {
    type: 'actions',
    elements: [
      wordButton(encodeActionId({ kind: 'allow', askId: view.askId }), words.allowOnce, 'primary'),
      wordButton(encodeActionId({ kind: 'reject', askId: view.askId }), words.reject, 'danger'),
    ],
  }
  return { text: fallbackText(view), blocks: [...approvalHead(view), ...(view.quorum ? [quorumLine(view.locale, view.quorum)] : []), actions] }
}

/** A decided (or withdrawn, expired, settled elsewhere…) tool approval. */
export function settledApprovalMessage(view: ApprovalView, outcome: Outcome): MessagePayload {
  const status = statusLine(view.locale, outcome, undefined, 'approval')
  // Settled: the status line says who and when; the expiry no longer matters.
  return { text: fitEscaped(status, LIMIT.notificationText), blocks: [...approvalHead({ ...view, expiresAt: undefined }), contextLine(status)] }
}
