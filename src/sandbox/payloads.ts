/**
 * The interaction payloads Slack sends, built from the workspace as it is
 * now: block_actions, block_suggestion, view_submission and view_closed, each
 * with a fresh trigger_id registered under the 3-second, use-once rule.
 */
import type { SandboxCore } from './core.js'
import { messageContainer, viewContainer } from './client-state.js'
import { publicMessage } from './methods/content.js'
import type { EphemeralMessage, SandboxHomeView, SandboxUser, SandboxView, StoredMessage } from './model.js'

type Obj = Record<string, unknown>

/** Where an interaction happens: a message (stored or ephemeral), the user's open modal, or their Home tab. */
export type Surface = { kind: 'message'; message: StoredMessage | EphemeralMessage } | { kind: 'view'; view: SandboxView | SandboxHomeView }

/** The legacy verification token Slack still puts in payloads (Bolt ignores it; signatures matter). */
const VERIFICATION_TOKEN = 'sandbox-verification-token'

function common(core: SandboxCore, user: SandboxUser): Obj {
  const { app } = core.workspace
  return {
    user: { id: user.id, username: user.name, name: user.name, team_id: app.teamId },
    api_app_id: app.appId,
    token: VERIFICATION_TOKEN,
    team: { id: app.teamId, domain: app.teamDomain },
    enterprise: null,
    is_enterprise_install: false,
  }
}

/** The view as a payload carries it: with the user's current `state.values`. */
export function viewWithState(core: SandboxCore, user: string, view: SandboxView | SandboxHomeView): Obj {
  return { ...structuredClone(view), state: { values: core.clientState.values(user, viewContainer(view.id), view.blocks) } }
}

/**
 * `container`, `channel`, `message`, `view` and `state` of a payload on
 * `surface`. A view (a modal or the Home tab) has no channel and no message:
 * `container: { type: 'view', view_id }` and the view itself, as Slack sends.
 */
function where(core: SandboxCore, user: SandboxUser, surface: Surface): Obj {
  if (surface.kind === 'view') {
    return { container: { type: 'view', view_id: surface.view.id }, view: viewWithState(core, user.id, surface.view) }
  }
  const { message } = surface
  const channel = core.workspace.channels.get(message.channel)
  const ephemeral = 'ephemeral' in message
  return {
    container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: ephemeral, ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}) },
    channel: { id: message.channel, name: channel?.isIm ? 'directmessage' : (channel?.name ?? '') },
    // Slack sends no `message` for ephemeral messages: it does not keep them.
    ...(ephemeral ? {} : { message: publicMessage(message as StoredMessage) }),
    state: { values: core.clientState.values(user.id, messageContainer(message.channel, message.ts), message.blocks) },
    response_url: `${core.origin()}/actions/${core.workspace.ids.opaque()}`,
  }
}

export function blockActionsPayload(core: SandboxCore, user: SandboxUser, surface: Surface, action: Obj): Obj {
  return {
    type: 'block_actions',
    ...common(core, user),
    ...where(core, user, surface),
    trigger_id: core.triggers.issue(user.id),
    actions: [{ ...action, action_ts: core.workspace.ids.ts() }],
  }
}

export function blockSuggestionPayload(core: SandboxCore, user: SandboxUser, surface: Surface, ids: { blockId: string; actionId: string }, value: string): Obj {
  const { state: _state, response_url: _url, ...rest } = where(core, user, surface)
  return { type: 'block_suggestion', ...common(core, user), ...rest, action_id: ids.actionId, block_id: ids.blockId, value }
}

export function viewSubmissionPayload(core: SandboxCore, user: SandboxUser, view: SandboxView): Obj {
  return { type: 'view_submission', ...common(core, user), trigger_id: core.triggers.issue(user.id), view: viewWithState(core, user.id, view), response_urls: [] }
}

/** `is_cleared`: the whole stack was closed at once, not just this view. */
export function viewClosedPayload(core: SandboxCore, user: SandboxUser, view: SandboxView, isCleared = false): Obj {
  return { type: 'view_closed', ...common(core, user), view: viewWithState(core, user.id, view), is_cleared: isCleared }
}

/**
 * An Events API callback, as Slack wraps every event: `event_callback`
 * with the team, the app, an event id and the authorization.
 */
export function eventCallback(core: SandboxCore, event: Obj): Obj {
  const { app } = core.workspace
  return {
    token: VERIFICATION_TOKEN,
    team_id: app.teamId,
    api_app_id: app.appId,
    event,
    type: 'event_callback',
    event_id: `Ev${core.workspace.ids.opaque().toUpperCase().slice(0, 10)}`,
    event_time: Math.floor(core.clock.now() / 1000),
    authorizations: [{ enterprise_id: null, team_id: app.teamId, user_id: app.botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: core.workspace.ids.opaque(),
  }
}

/**
 * The Events API callback for `app_home_opened`. `view` is the tab as last
 * published, when there is one; `channel` the person's DM with the app.
 */
export function appHomeOpenedCallback(core: SandboxCore, user: SandboxUser, channel: string, view: SandboxHomeView | undefined): Obj {
  const eventTs = core.workspace.ids.ts()
  return eventCallback(core, { type: 'app_home_opened', user: user.id, channel, tab: 'home', event_ts: eventTs, ...(view ? { view: viewWithState(core, user.id, view) } : {}) })
}
