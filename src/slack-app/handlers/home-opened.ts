import { appHomeOpenedEvent } from '../../slack/payloads.js'
import type { InteractionDeps } from './context.js'

/**
 * Someone opened the app's Home tab (`app_home_opened`). Only the Home tab
 * is ours to draw: the same event comes for the Messages tab, where
 * questions sent as DMs already are. Bolt acknowledges events itself; the
 * publish runs after, so a slow one never makes Slack retry the event.
 */
export async function handleHomeOpened(deps: InteractionDeps, body: unknown): Promise<void> {
  const event = appHomeOpenedEvent.safeParse(body)
  if (!event.success) {
    deps.logger.warn(`ignored an app_home_opened event that does not parse: ${event.error.issues[0]?.message ?? ''}`)
    return
  }
  if (event.data.tab !== 'home' || !deps.home) return
  await deps.home.opened(event.data.user)
}
