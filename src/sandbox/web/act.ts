/**
 * What a person does on the page, as `POST /web/act` bodies, carried out by
 * the same ScriptedUser the end-to-end tests use: the app receives exactly
 * the payloads Slack would send. The one step a ScriptedUser keeps private,
 * asking an external select for options while the person types, is built
 * with the same payload builder (`blockSuggestionPayload`).
 */
import { z } from 'zod'

import { LIMIT } from '../../../blocks/limits.js'
import type { SandboxCore } from '../core.js'
import { elementsOf, optionsOf, textOf } from '../elements.js'
import { SandboxError } from '../errors.js'
import { blockSuggestionPayload, type Surface } from '../payloads.js'
import type { ScriptedUser, Target } from '../scripted-user.js'
import type { ActResult, PageAction } from './wire.js'

/** A Slack user id as Slack spells them (U… or W…). */
export const userId = z.string().regex(/^[UW][A-Z0-9]{1,30}$/, 'a user id looks like U0SANDBOX01')

const messageTarget = z.object({
  channel: z.string().regex(/^[CGD][A-Z0-9]{1,30}$/, 'a channel id looks like C0SANDBOX01'),
  ts: z.string().regex(/^\d{1,12}\.\d{1,6}$/, 'a message ts looks like 1700000000.000100'),
  ephemeral: z.boolean().optional(),
})
const target = z.union([z.literal('modal'), z.literal('home'), messageTarget])
/** Visible text is at most a few thousand characters; action ids and block ids at most 255. */
const label = z.string().min(1).max(LIMIT.sectionText)
const id = z.string().min(1).max(255)
const query = z.string().max(LIMIT.sectionText)

export const webAction = z.discriminatedUnion('action', [
  /** Comments on a passage of a code channel's canvas (the passage as selected, within one section). */
  z.object({ action: z.literal('comment'), user: userId, canvasId: id, quotedText: label, text: z.string().trim().min(1).max(LIMIT.sectionText) }),
  /** A button or an overflow item, by its visible text (and action_id: the Home tab shows many asks' buttons). */
  z.object({ action: z.literal('click'), user: userId, target, label, actionId: id.optional() }),
  /** One option of a select or radio buttons; `query` is what was typed into an external select. */
  z.object({ action: z.literal('choose'), user: userId, target, actionId: id, option: label, query: query.optional() }),
  /** Ticks or unticks one option of checkboxes or a multi-select. */
  z.object({ action: z.literal('toggle'), user: userId, target, actionId: id, option: label, query: query.optional() }),
  /** Asks the app for an external select's options (block_suggestion). */
  z.object({ action: z.literal('suggest'), user: userId, target, actionId: id, query }),
  /** Types into a text input of the open modal (Slack tells the app nothing until submit). */
  z.object({ action: z.literal('fill'), user: userId, blockId: id, value: z.string().max(LIMIT.plainTextInputMax) }),
  /** Submits the open modal, after typing `fills` (block_id → text) into its inputs. */
  z.object({ action: z.literal('submit'), user: userId, fills: z.record(id, z.string().max(LIMIT.plainTextInputMax)).optional() }),
  /** Closes the open modal with its Close button. */
  z.object({ action: z.literal('close'), user: userId }),
  /** The page was loaded afresh: like a reloaded Slack client, the person's open modals are gone. */
  z.object({ action: z.literal('leave'), user: userId }),
  /** The person opened the app's Home tab: Slack sends app_home_opened, the app publishes the tab. */
  z.object({ action: z.literal('open-home'), user: userId }),
  /** Replies in a message's thread, as typed in the client: Slack sends the app a message event. */
  z.object({ action: z.literal('reply'), user: userId, target: messageTarget.omit({ ephemeral: true }), text: z.string().trim().min(1).max(LIMIT.messageTextHard) }),
])

export type WebAction = z.infer<typeof webAction>

// The client builds its bodies from `PageAction`: a drift between the two fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameShape: Same<WebAction['action'], PageAction['action']> = true
void sameShape

export type { ActResult } from './wire.js'

async function suggest(core: SandboxCore, user: ScriptedUser, where: Target, actionId: string, typed: string): Promise<ActResult> {
  const surface = user.surface(where)
  const found = elementsOf(surface.kind === 'view' ? surface.view.blocks : surface.message.blocks).find((f) => f.actionId === actionId)
  if (!found || (found.element.type !== 'external_select' && found.element.type !== 'multi_external_select')) {
    throw new SandboxError('NOT_FOUND', `no external select ${actionId} there`)
  }
  const ack = await core.delivery.send(blockSuggestionPayload(core, user.profile, surface, found, typed))
  const offered = optionsOf(ack).slice(0, LIMIT.externalSelectOptions)
  return { ok: true, options: offered.map((o) => ({ text: textOf(o.text), value: String(o.value) })) }
}

/** A pattern matching exactly `text` (an action_id names one button, even one whose id has regex characters). */
function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
}

/** Carries out one page action as `user`. Throws SandboxError for what the user could not do. */
export async function performAction(core: SandboxCore, user: ScriptedUser, action: WebAction): Promise<ActResult> {
  switch (action.action) {
    case 'click':
      await user.click(action.target, action.label, action.actionId !== undefined ? { actionId: exactly(action.actionId) } : {})
      return { ok: true }
    case 'choose':
      await user.choose(action.target, action.option, { menu: action.actionId, ...(action.query !== undefined ? { query: action.query } : {}) })
      return { ok: true }
    case 'toggle':
      await user.toggle(action.target, action.option, { menu: action.actionId, ...(action.query !== undefined ? { query: action.query } : {}) })
      return { ok: true }
    case 'suggest':
      return suggest(core, user, action.target, action.actionId, action.query)
    case 'fill':
      user.fill(action.blockId, action.value)
      return { ok: true }
    case 'submit':
      for (const [blockId, value] of Object.entries(action.fills ?? {})) user.fill(blockId, value)
      await user.submit()
      return { ok: true }
    case 'close':
      await user.close()
      return { ok: true }
    case 'leave':
      await user.leave()
      return { ok: true }
    case 'open-home':
      await user.openHome()
      return { ok: true }
    case 'reply':
      await user.reply(action.target, action.text)
      return { ok: true }
    case 'comment':
      user.commentOnCanvas(action.canvasId, action.quotedText, action.text)
      return { ok: true }
    default: {
      const unreachable: never = action
      throw new Error(`unknown action ${JSON.stringify(unreachable)}`)
    }
  }
}
