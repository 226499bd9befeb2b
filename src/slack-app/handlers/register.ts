import type { App, ViewSubmitAction } from '@slack/bolt'
import { ACTION_ID_PATTERN, CALLBACK_ID_PATTERN } from '../../../blocks/ids.js'
import { blockActionsPayload, blockSuggestionPayload, viewSubmissionPayload } from '../../slack/payloads.js'
import { TIMING } from '../../slack/timing.js'
import { AckReceipt } from './ack-receipt.js'
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
 * An interaction read from a Socket Mode connection that is no longer
 * active (an instance frozen past its pong timeout, and thawed): its ack
 * cannot reach Slack, which has shown the person it failed, so it is not
 * recorded either; they click again.
 */
async function unreachable(deps: InteractionDeps, what: string, ack: () => Promise<void>): Promise<boolean> {
  if (deps.canAcknowledge?.() !== false) return false
  deps.logger.warn(`${what}: arrived on a Slack connection that is gone, so Slack has shown it failed; not recorded`)
  await ack().catch(() => undefined)
  return true
}

/**
 * Wires the handlers into Bolt. A click and a form are acknowledged once
 * what they change is recorded, at the latest TIMING.ackAfterWriteWithinMs
 * in (decision 0081: an instance killed before its write leaves the person
 * Slack's own failure, not a success nothing recorded); a form's ack also
 * carries its validation result. Options are acknowledged with their list.
 */
export function registerHandlers(app: App, deps: InteractionDeps): void {
  app.action(ACTION_ID_PATTERN, async ({ ack, body }) => {
    const payload = blockActionsPayload.safeParse(body)
    if (!payload.success) {
      await ack()
      deps.logger.warn(`ignored a block_actions payload that does not parse: ${payload.error.issues[0]?.message ?? ''}`)
      return
    }
    if (await unreachable(deps, `a click from ${payload.data.user.id}`, ack)) return
    // Slack sends one action per click; were there several, the first one recorded would acknowledge them all.
    const receipt = new AckReceipt({ ack: () => ack(), withinMs: TIMING.ackAfterWriteWithinMs, logger: deps.logger, what: `a click from ${payload.data.user.id}` })
    const withReceipt: InteractionDeps = { ...deps, receipt }
    try {
      for (const action of payload.data.actions) {
        await handleAction(withReceipt, payload.data, action).catch(async (error: unknown) => {
          deps.logger.error(`action ${action.action_id} from ${payload.data.user.id} failed, and they are told to try again: ${describe(error)}`)
          await tellActionFailed(withReceipt, payload.data)
        })
      }
    } finally {
      await receipt.done()
    }
  })

  app.view<ViewSubmitAction>({ callback_id: CALLBACK_ID_PATTERN, type: 'view_submission' }, async ({ ack, body }) => {
    const arrived = Date.now()
    const payload = viewSubmissionPayload.safeParse(body)
    if (!payload.success) {
      await ack()
      deps.logger.warn(`ignored a view_submission payload that does not parse: ${payload.error.issues[0]?.message ?? ''}`)
      return
    }
    if (await unreachable(deps, `view ${payload.data.view.callback_id} from ${payload.data.user.id}`, ack)) return
    const decision: ViewDecision = await handleViewSubmission(deps, payload.data).catch((error: unknown) => {
      deps.logger.error(`view ${payload.data.view.callback_id} from ${payload.data.user.id} failed, and the form stays open for them to submit again: ${describe(error)}`)
      return submitAgain(deps, payload.data)
    })
    if (!decision.after) return ack(decision.response)
    // The form closes once its answer is recorded; a settle that fails first keeps it open, saying so.
    const again = submitAgain(deps, payload.data).response
    const receipt = new AckReceipt({
      ack: () => ack(decision.response),
      ...(again ? { ackFailed: () => ack(again) } : {}),
      // Slack's clock started before the form's read and checks: they count too.
      withinMs: Math.max(0, TIMING.ackAfterWriteWithinMs - (Date.now() - arrived)),
      logger: deps.logger,
      what: `view ${payload.data.view.callback_id} from ${payload.data.user.id}`,
    })
    try {
      await decision.after(receipt).catch((error: unknown) => {
        deps.logger.error(`settling from view ${payload.data.view.callback_id} failed: ${describe(error)}`)
        receipt.failed()
      })
    } finally {
      await receipt.done()
    }
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
