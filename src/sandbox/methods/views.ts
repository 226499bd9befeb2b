/**
 * views.open, views.update, views.push: modals for the user whose
 * interaction issued the trigger_id; views.publish: a user's Home tab.
 * Views are checked with the same checker as messages and refused with
 * `invalid_arguments`, as Slack does.
 */
import { z } from 'zod'

import { checkHomeViewPayload, checkViewPayload } from '../../../blocks/check.js'
import { LIMIT } from '../../../blocks/limits.js'
import { TIMING } from '../../slack/timing.js'
import { BAD_JSON, json, text } from '../args.js'
import type { SandboxCore } from '../core.js'
import { SlackRefusal } from '../errors.js'
import { fillIds } from '../fill-ids.js'
import type { SandboxHomeView, SandboxView, SandboxViewBase } from '../model.js'
import { refuseProblems } from './content.js'
import { method, perMinute, type MethodTable } from './method.js'

/** Slack keeps at most this many views in one modal stack (push_limit_reached beyond). */
export const VIEW_STACK_MAX = 3

/** Checks a view payload and builds the view Slack would return, keeping `id` and the stack links when given. */
export function buildView(core: SandboxCore, raw: unknown, keep?: Pick<SandboxView, 'id' | 'root_view_id' | 'previous_view_id'>): SandboxView {
  if (raw === BAD_JSON || raw === undefined) throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: view'] } })
  refuseProblems(checkViewPayload(raw))
  const view = raw as Record<string, unknown>
  const { workspace } = core
  const id = keep?.id ?? workspace.ids.next('V')
  const optional = (key: 'submit' | 'close'): Partial<SandboxView> => (view[key] ? { [key]: view[key] as Record<string, unknown> } : {})
  return {
    ...viewBase(core, view, id, keep?.root_view_id ?? id),
    type: 'modal',
    title: view.title as Record<string, unknown>,
    ...optional('submit'),
    ...optional('close'),
    clear_on_close: view.clear_on_close === true,
    notify_on_close: view.notify_on_close === true,
    previous_view_id: keep?.previous_view_id ?? null,
  }
}

/** The fields Slack fills in on every view it returns: ids, the blocks with their ids filled, a fresh hash, empty state. */
function viewBase(core: SandboxCore, view: Record<string, unknown>, id: string, rootViewId: string): SandboxViewBase {
  const { workspace } = core
  return {
    id,
    team_id: workspace.app.teamId,
    blocks: fillIds(view.blocks as Record<string, unknown>[], workspace.ids),
    private_metadata: typeof view.private_metadata === 'string' ? view.private_metadata : '',
    callback_id: typeof view.callback_id === 'string' ? view.callback_id : '',
    external_id: typeof view.external_id === 'string' ? view.external_id : '',
    state: { values: {} },
    hash: `${Math.floor(core.clock.now() / 1000)}.${workspace.ids.opaque()}`,
    root_view_id: rootViewId,
    app_id: workspace.app.appId,
    app_installed_team_id: workspace.app.teamId,
    bot_id: workspace.app.botId,
  }
}

const tier4 = perMinute(TIMING.tier4CallsPerMinute)

/** Checks a Home view and builds what views.publish returns, keeping the user's view id. */
function buildHomeView(core: SandboxCore, raw: unknown, keepId: string | undefined): SandboxHomeView {
  if (raw === BAD_JSON || raw === undefined) throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: view'] } })
  if (Buffer.byteLength(JSON.stringify(raw)) > LIMIT.viewBytes) throw new SlackRefusal('view_too_large')
  refuseProblems(checkHomeViewPayload(raw))
  const view = raw as Record<string, unknown>
  const { workspace } = core
  const id = keepId ?? workspace.ids.next('V')
  return { ...viewBase(core, view, id, id), type: 'home', previous_view_id: null }
}

export const viewMethods: MethodTable = {
  'views.open': method({
    token: 'bot',
    args: z.object({ trigger_id: z.string().optional(), interactivity_pointer: z.string().optional(), view: json.optional() }),
    rate: () => ({ key: 'views.open', rule: tier4 }),
    run(args, core) {
      const trigger = args.trigger_id ?? args.interactivity_pointer
      if (!trigger) throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] invalid `trigger_id`'] } })
      const view = buildView(core, args.view)
      const user = core.triggers.exchange(trigger)
      core.workspace.openView(user, view)
      return { view }
    },
  }),

  'views.push': method({
    token: 'bot',
    args: z.object({ trigger_id: z.string().optional(), interactivity_pointer: z.string().optional(), view: json.optional() }),
    rate: () => ({ key: 'views.push', rule: tier4 }),
    run(args, core) {
      const trigger = args.trigger_id ?? args.interactivity_pointer
      if (!trigger) throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] invalid `trigger_id`'] } })
      const draft = buildView(core, args.view)
      const user = core.triggers.exchange(trigger)
      const stack = core.workspace.viewStack(user)
      const root = stack[0]
      const top = stack.at(-1)
      if (!root || !top) throw new SlackRefusal('not_found')
      if (stack.length >= VIEW_STACK_MAX) throw new SlackRefusal('push_limit_reached')
      const view = { ...draft, root_view_id: root.id, previous_view_id: top.id }
      core.workspace.pushView(user, view)
      return { view }
    },
  }),

  'views.publish': method({
    token: 'bot',
    args: z.object({ user_id: z.string().optional(), view: json.optional(), hash: text.optional() }),
    rate: () => ({ key: 'views.publish', rule: tier4 }),
    run(args, core) {
      if (!args.user_id) throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: user_id'] } })
      if (!core.homeTabEnabled) throw new SlackRefusal('not_enabled')
      // Unverified: Slack's list for views.publish names no error for an unknown user; user_not_found is what users.* methods say.
      if (!core.workspace.users.has(args.user_id)) throw new SlackRefusal('user_not_found')
      const current = core.workspace.homeView(args.user_id)
      // Slack refuses a publish made against an older version of the tab.
      if (args.hash !== undefined && args.hash !== current?.hash) throw new SlackRefusal('hash_conflict')
      const view = buildHomeView(core, args.view, current?.id)
      core.workspace.publishHome(args.user_id, view)
      return { view }
    },
  }),

  'views.update': method({
    token: 'bot',
    args: z.object({ view_id: z.string().optional(), external_id: z.string().optional(), hash: text.optional(), view: json.optional() }),
    rate: () => ({ key: 'views.update', rule: tier4 }),
    run(args, core) {
      const found = args.view_id ? core.workspace.findView(args.view_id) : args.external_id ? core.workspace.findViewByExternalId(args.external_id) : undefined
      if (!found) throw new SlackRefusal('not_found')
      // Slack refuses an update made against an older version of the view.
      if (args.hash !== undefined && args.hash !== found.view.hash) throw new SlackRefusal('hash_conflict')
      const view = buildView(core, args.view, found.view)
      core.workspace.replaceView(found.user, view)
      return { view }
    },
  }),
}
