import type { App, ViewSubmitAction } from '@slack/bolt'
import { ACTION_ID_PATTERN, CALLBACK_ID_PATTERN } from '../../../blocks/ids.js'
import { blockActionsPayload, blockSuggestionPayload, viewSubmissionPayload } from '../../slack/payloads.js'
import { handleAction, tellActionFailed } from './actions.js'
import type { InteractionDeps } from './context.js'
import { handleHomeOpened } from './home-opened.js'
import { handleSuggestion } from './suggestions.js'
import { handleThreadReply } from './thread-replies.js'
import { handleViewSubmission, submitAgain, type ViewDecision } from './views.js'

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Wires the handlers into Bolt. Every listener acknowledges first (Slack
 * shows "Operation timed out" after 3 s), except view submissions, whose ack
 * carries the validation result and so comes right after a local check.
 */
export function registerHandlers(app: App, deps: InteractionDeps): void {
  app.action(ACTION_ID_PATTERN, async ({ ack, body }) => {
    await ack()
    const payload = blockActionsPayload.safeParse(body)
    if (!payload.success) {
      deps.logger.warn(`ignored a block_actions payload that does not parse: ${payload.error.issues[0]?.message ?? ''}`)
      return
    }
    for (const action of payload.data.actions) {
      await handleAction(deps, payload.data, action).catch(async (error: unknown) => {
        deps.logger.error(`action ${action.action_id} from ${payload.data.user.id} failed, and they are told to try again: ${describe(error)}`)
        await tellActionFailed(deps, payload.data)
      })
    }
  })

  app.view<ViewSubmitAction>({ callback_id: CALLBACK_ID_PATTERN, type: 'view_submission' }, async ({ ack, body }) => {
    const payload = viewSubmissionPayload.safeParse(body)
    if (!payload.success) {
      await ack()
      deps.logger.warn(`ignored a view_submission payload that does not parse: ${payload.error.issues[0]?.message ?? ''}`)
      return
    }
    const decision: ViewDecision = await handleViewSubmission(deps, payload.data).catch((error: unknown) => {
      deps.logger.error(`view ${payload.data.view.callback_id} from ${payload.data.user.id} failed, and the form stays open for them to submit again: ${describe(error)}`)
      return submitAgain(deps, payload.data)
    })
    await ack(decision.response)
    await decision.after?.().catch((error: unknown) => deps.logger.error(`settling from view ${payload.data.view.callback_id} failed: ${describe(error)}`))
  })

  app.options(ACTION_ID_PATTERN, async ({ ack, body }) => {
    const payload = blockSuggestionPayload.safeParse(body)
    if (!payload.success) return ack({ options: [] })
    const result = await handleSuggestion(deps, payload.data).catch((error: unknown) => {
      deps.logger.error(`options for ${payload.data.action_id} failed: ${describe(error)}`)
      return { options: [] }
    })
    await ack(result as Parameters<typeof ack>[0])
  })

  app.event('app_home_opened', async ({ event }) => {
    await handleHomeOpened(deps, event).catch((error: unknown) => deps.logger.error(`publishing the Home tab failed: ${describe(error)}`))
  })

  // Every message the app hears (message.channels / message.groups): only replies in an open ask's thread count.
  app.event('message', async ({ event }) => {
    await handleThreadReply(deps, event).catch((error: unknown) => deps.logger.error(`a thread reply could not be handled: ${describe(error)}`))
  })

  app.error(async (error) => {
    deps.logger.error(`Slack app error: ${describe(error)}`)
  })
}
