/**
 * What Slack does with the ack of a view_submission: `errors` keeps the modal
 * open and shows each message under its input block; `update` replaces the
 * view, `push` stacks a new one, `clear` closes them all; a bare ack closes
 * the submitted view. An ack Slack would refuse fails the scripted submit.
 */
import { LIMIT } from '../../blocks/limits.js'
import type { SandboxCore } from './core.js'
import { SandboxError, SlackRefusal } from './errors.js'
import { buildView, VIEW_STACK_MAX } from './methods/views.js'
import type { SandboxView } from './model.js'

function built(core: SandboxCore, raw: unknown, keep?: Pick<SandboxView, 'id' | 'root_view_id' | 'previous_view_id'>): SandboxView {
  try {
    return buildView(core, raw, keep)
  } catch (error) {
    if (!(error instanceof SlackRefusal)) throw error
    const messages = (error.extra.response_metadata as { messages?: string[] } | undefined)?.messages ?? []
    throw new SandboxError('BAD_ACK', `Slack would refuse the view in the ack: ${error.error} ${messages.join('; ')}`)
  }
}

export function applyViewSubmissionAck(core: SandboxCore, user: string, view: SandboxView, ack: Record<string, unknown>): void {
  const { workspace } = core
  switch (ack.response_action) {
    case undefined:
      return workspace.closeViews(user, false)
    case 'clear':
      return workspace.closeViews(user, true)
    case 'errors': {
      const errors = ack.errors
      if (typeof errors !== 'object' || errors === null) throw new SandboxError('BAD_ACK', 'response_action errors needs an `errors` object')
      const inputs = new Set(view.blocks.filter((b) => b.type === 'input').map((b) => String(b.block_id)))
      for (const [blockId, message] of Object.entries(errors)) {
        if (!inputs.has(blockId)) throw new SandboxError('BAD_ACK', `response_action errors names ${blockId}, which is not an input block of the view`)
        if (typeof message !== 'string' || message.length === 0 || message.length > LIMIT.inputHint) throw new SandboxError('BAD_ACK', `the error for ${blockId} must be a non-empty string`)
      }
      return workspace.showViewErrors(user, view.id, errors as Record<string, string>)
    }
    case 'update':
      return workspace.replaceView(user, built(core, ack.view, view))
    case 'push': {
      const stack = workspace.viewStack(user)
      if (stack.length >= VIEW_STACK_MAX) throw new SandboxError('BAD_ACK', 'response_action push past the three-view stack')
      const pushed = built(core, ack.view)
      return workspace.pushView(user, { ...pushed, root_view_id: view.root_view_id, previous_view_id: view.id })
    }
    default:
      throw new SandboxError('BAD_ACK', `unknown response_action ${JSON.stringify(ack.response_action)}`)
  }
}
