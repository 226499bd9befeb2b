/**
 * A Slack user for tests (and, later, a live page): clicks buttons by their
 * visible text, picks and ticks options, fills, submits and closes modals.
 * Each step builds the payload Slack would send, delivers it to the app, and
 * resolves with the app's ack payload. Steps Slack's client takes without
 * telling the app (typing into a modal input) resolve with `undefined`.
 */
import { LIMIT } from '../../blocks/limits.js'
import { messageContainer, viewContainer, type ContainerKey } from './client-state.js'
import type { CanvasComment, CanvasReply } from './code-channels.js'
import type { SandboxCore } from './core.js'
import { elementsOf, isMultiChoice, isSingleChoice, isTextInput, matches, optionsOf, textOf, type FoundElement } from './elements.js'
import { SandboxError, SlackRefusal } from './errors.js'
import type { EphemeralMessage, SandboxHomeView, SandboxUser, SandboxView, StoredMessage } from './model.js'
import { appHomeOpenedCallback, blockActionsPayload, blockSuggestionPayload, viewClosedPayload, viewSubmissionPayload, type Surface } from './payloads.js'
import { applyViewSubmissionAck } from './view-ack.js'
import { appHearsMessage, messageEventCallback } from './message-events.js'

type Obj = Record<string, unknown>

/**
 * What a user acts on: a message (as it is now), an ephemeral, the open modal,
 * the app's Home tab (`'home'`, as last published), or `{ stale }`: a copy of
 * a message as a client that has not redrawn yet still shows it (Slack
 * delivers such clicks; apps must cope).
 */
export type Target = { channel: string; ts: string; ephemeral?: boolean } | StoredMessage | EphemeralMessage | 'modal' | 'home' | { stale: StoredMessage }

/** Narrows which button is meant when several show the same text (the Home tab lists many asks): its action_id. */
export interface ClickOptions {
  actionId?: string | RegExp
}

/** Narrows which menu or input is meant: its placeholder, label, action_id or block_id. */
export interface PickOptions {
  menu?: string | RegExp
  /** What the user types into an external select (default: the option text). */
  query?: string
}

/** The ack payload the app answered with (`{}` for a bare ack). */
export type Ack = Record<string, unknown>

export class ScriptedUser {
  constructor(
    private readonly core: SandboxCore,
    readonly id: string,
  ) {}

  get profile(): SandboxUser {
    const user = this.core.workspace.users.get(this.id)
    if (!user) throw new SandboxError('NOT_FOUND', `no user ${this.id}`)
    return user
  }

  /** The modal on top of this user's stack, if one is open. */
  modal(): SandboxView | undefined {
    return this.core.workspace.viewStack(this.id).at(-1)
  }

  /** The errors the app put under the open modal's inputs (response_action: errors), by block_id. */
  modalErrors(): Record<string, string> | undefined {
    const view = this.modal()
    return view ? this.core.workspace.viewErrors.get(view.id) : undefined
  }

  /** The app's Home tab as this user sees it (the last view the app published for them). */
  home(): SandboxHomeView | undefined {
    return this.core.workspace.homeView(this.id)
  }

  /**
   * Opens the app's Home tab: Slack sends `app_home_opened` (tab `home`, the
   * person's DM with the app, the last view when there is one); the app
   * answers by publishing the tab. Resolves with the event's ack, before
   * the app has published (watch `home()` or the workspace's changes).
   */
  async openHome(): Promise<Ack> {
    if (!this.core.homeTabEnabled) throw new SandboxError('NOT_FOUND', 'the app has no Home tab (turned off in its settings)')
    const { channel } = this.core.workspace.openIm(this.id)
    return this.core.delivery.sendEvent(appHomeOpenedCallback(this.core, this.profile, channel.id, this.home()))
  }

  /**
   * Replies in a message's thread (the thread of its parent, when it is
   * itself a reply) as this person, typed in the client: the reply is
   * stored, and the app gets a `message` event when Slack would send it one
   * (the history scope, the bot in the conversation: message-events.ts).
   * Resolves with the event's ack, or `undefined` when the app was not told.
   */
  async reply(target: { channel: string; ts: string }, text: string): Promise<Ack | undefined> {
    const channel = this.core.workspace.channels.get(target.channel)
    if (!channel || !channel.members.has(this.id)) throw new SandboxError('NOT_FOUND', `${this.id} is not in a channel ${target.channel}`)
    const parent = this.core.workspace.findMessage(channel.id, target.ts)
    if (!parent) throw new SandboxError('NOT_FOUND', `no message ${target.ts} in ${channel.id}`)
    if (text.trim() === '') throw new SandboxError('NOT_FOUND', 'a reply needs some text (Slack sends no empty message)')
    const threadTs = parent.thread_ts ?? parent.ts
    const root = this.core.workspace.findMessage(channel.id, threadTs)
    const reply = this.core.workspace.post({ channel: channel.id, user: this.id, text, thread_ts: threadTs })
    if (!appHearsMessage(this.core, channel, reply)) return undefined
    return this.core.delivery.sendEvent(messageEventCallback(this.core, channel, reply, root))
  }

  /**
   * Comments on a passage of a canvas shown in a code channel, as a person
   * selects text and comments in the canvas tab. Refused, as Slack would,
   * when they are not in the channel, the view gives no comment access, or
   * the passage is not within one section.
   */
  commentOnCanvas(canvasId: string, quotedText: string, text: string): CanvasComment {
    try {
      return this.core.codeChannels.comment({ canvasId, userId: this.id, quotedText, text })
    } catch (error) {
      if (error instanceof SlackRefusal) throw new SandboxError('INVALID_INPUT', `Slack would not take this comment: ${error.error}`)
      throw error
    }
  }

  /** Replies in the thread of a comment on a canvas, as a person does under someone's comment (refused as `commentOnCanvas` is). */
  replyOnCanvas(commentId: string, text: string): CanvasReply {
    try {
      return this.core.codeChannels.reply({ commentId, userId: this.id, text })
    } catch (error) {
      if (error instanceof SlackRefusal) throw new SandboxError('INVALID_INPUT', `Slack would not take this reply: ${error.error}`)
      throw error
    }
  }

  /** Clicks a button, or an overflow menu item, by its visible text (and its action_id, when several show that text). */
  async click(target: Target, label: string | RegExp, options: ClickOptions = {}): Promise<Ack> {
    const surface = this.surface(target)
    const hits: { found: FoundElement; action: Obj }[] = []
    for (const found of this.elements(surface)) {
      const { element } = found
      if (options.actionId !== undefined && !matches(found.actionId, options.actionId)) continue
      if (element.type === 'button' && matches(textOf(element.text), label)) {
        const { type, action_id, text, value, style } = element
        hits.push({ found, action: { type, action_id, block_id: found.blockId, text, ...(value !== undefined ? { value } : {}), ...(style !== undefined ? { style } : {}) } })
      }
      if (element.type === 'overflow') {
        for (const option of optionsOf(element)) if (matches(textOf(option.text), label)) hits.push({ found, action: { type: 'overflow', action_id: found.actionId, block_id: found.blockId, selected_option: option } })
      }
    }
    const hit = this.one(hits, `a button or overflow item ${String(label)}`, surface)
    return this.send(blockActionsPayload(this.core, this.profile, surface, hit.action))
  }

  /** Picks one option in a static or external select or radio buttons (block_suggestion first for external selects). */
  async choose(target: Target, optionText: string | RegExp, options: PickOptions = {}): Promise<Ack | undefined> {
    const surface = this.surface(target)
    const menus = this.elements(surface).filter((f) => isSingleChoice(f.element) && this.isMenu(f, options.menu))
    const hits: { found: FoundElement; option?: Obj }[] = []
    for (const found of menus) {
      if (found.element.type === 'external_select') hits.push({ found })
      else for (const option of optionsOf(found.element)) if (matches(textOf(option.text), optionText)) hits.push({ found, option })
    }
    const direct = hits.filter((h) => h.option)
    const hit = this.one(direct.length > 0 ? direct : hits, `an option ${String(optionText)}`, surface)
    const option = hit.option ?? (await this.suggest(surface, hit.found, optionText, options.query))
    return this.change(surface, hit.found, { type: hit.found.element.type, selected_option: option })
  }

  /** Ticks or unticks one option of checkboxes or a multi-select. */
  async toggle(target: Target, optionText: string | RegExp, options: PickOptions = {}): Promise<Ack | undefined> {
    const surface = this.surface(target)
    const hits: { found: FoundElement; option?: Obj }[] = []
    for (const found of this.elements(surface).filter((f) => isMultiChoice(f.element) && this.isMenu(f, options.menu))) {
      if (found.element.type === 'multi_external_select') hits.push({ found })
      else for (const option of optionsOf(found.element)) if (matches(textOf(option.text), optionText)) hits.push({ found, option })
    }
    const direct = hits.filter((h) => h.option)
    const hit = this.one(direct.length > 0 ? direct : hits, `an option ${String(optionText)}`, surface)
    const option = hit.option ?? (await this.suggest(surface, hit.found, optionText, options.query))
    const current = this.core.clientState.values(this.id, this.container(surface), this.blocks(surface))[hit.found.blockId]?.[hit.found.actionId]
    const selected = (current?.selected_options as Obj[] | undefined) ?? []
    const next = selected.some((o) => o.value === option.value) ? selected.filter((o) => o.value !== option.value) : [...selected, option]
    return this.change(surface, hit.found, { type: hit.found.element.type, selected_options: next })
  }

  /** Types `value` into a text input of the open modal, found by its label (or block_id / action_id). */
  fill(label: string | RegExp, value: string): void {
    const surface = this.surface('modal')
    const hit = this.one(
      this.elements(surface).filter((f) => isTextInput(f.element) && this.isMenu(f, label)).map((found) => ({ found })),
      `a text input ${String(label)}`,
      surface,
    )
    this.core.clientState.set(this.id, this.container(surface), hit.found.blockId, hit.found.actionId, { type: hit.found.element.type, value: value === '' ? null : value })
  }

  /** Submits the open modal (view_submission) and applies the app's response_action. */
  async submit(): Promise<Ack> {
    const view = this.modal()
    if (!view) throw new SandboxError('NOT_FOUND', `${this.id} has no modal open`)
    this.checkInputs(view)
    const ack = await this.send(viewSubmissionPayload(this.core, this.profile, view))
    applyViewSubmissionAck(this.core, this.id, view, ack)
    return ack
  }

  /** Closes the open modal with its Close button (view_closed is sent only when the view asked for it). */
  async close(): Promise<Ack | undefined> {
    const view = this.modal()
    if (!view) throw new SandboxError('NOT_FOUND', `${this.id} has no modal open`)
    const ack = view.notify_on_close ? await this.send(viewClosedPayload(this.core, this.profile, view)) : undefined
    this.core.workspace.closeViews(this.id, view.clear_on_close)
    return ack
  }

  /**
   * The person reloads their client: every modal they had open is gone. An
   * app that asked for `notify_on_close` hears it (best effort: the views
   * close even when no app is listening).
   */
  async leave(): Promise<void> {
    const stack = this.core.workspace.viewStack(this.id)
    const top = stack.at(-1)
    if (!top) return
    this.core.workspace.closeViews(this.id, true)
    if (top.notify_on_close) await this.send(viewClosedPayload(this.core, this.profile, top, stack.length > 1)).catch(() => undefined)
  }

  private send(payload: Obj): Promise<Ack> {
    return this.core.delivery.send(payload)
  }

  /** What `target` means for this user: the message or modal they act on. */
  surface(target: Target): Surface {
    const { workspace } = this.core
    if (target === 'modal') {
      const view = this.modal()
      if (!view) throw new SandboxError('NOT_FOUND', `${this.id} has no modal open`)
      return { kind: 'view', view }
    }
    if (target === 'home') {
      const view = this.home()
      if (!view) throw new SandboxError('NOT_FOUND', `${this.id} has no Home tab yet: the app has not published one (openHome() first)`)
      return { kind: 'view', view }
    }
    if ('stale' in target) {
      if (!workspace.channels.get(target.stale.channel)?.members.has(this.id)) throw new SandboxError('NOT_FOUND', `${this.id} cannot see ${target.stale.channel}`)
      return { kind: 'message', message: structuredClone(target.stale) }
    }
    if ('ephemeral' in target && target.ephemeral) {
      const message = workspace.ephemerals(this.id, target.channel).find((m) => m.ts === target.ts)
      if (!message) throw new SandboxError('NOT_FOUND', `${this.id} got no ephemeral message ${target.ts} in ${target.channel}`)
      return { kind: 'message', message }
    }
    const message = workspace.findMessage(target.channel, target.ts)
    if (!message) throw new SandboxError('NOT_FOUND', `no message ${target.ts} in ${target.channel}`)
    if (!workspace.channels.get(target.channel)?.members.has(this.id)) throw new SandboxError('NOT_FOUND', `${this.id} cannot see ${target.channel}`)
    return { kind: 'message', message }
  }

  private blocks(surface: Surface): readonly Obj[] | undefined {
    return surface.kind === 'view' ? surface.view.blocks : surface.message.blocks
  }

  private container(surface: Surface): ContainerKey {
    return surface.kind === 'view' ? viewContainer(surface.view.id) : messageContainer(surface.message.channel, surface.message.ts)
  }

  private elements(surface: Surface): FoundElement[] {
    return elementsOf(this.blocks(surface))
  }

  private isMenu(found: FoundElement, menu: string | RegExp | undefined): boolean {
    if (menu === undefined) return true
    const names = [textOf(found.element.placeholder), found.label ?? '', found.actionId, found.blockId]
    return names.some((name) => name !== '' && matches(name, menu))
  }

  private one<T extends { found: FoundElement }>(hits: T[], what: string, surface: Surface): T {
    const where = surface.kind === 'view' ? `${surface.view.type === 'home' ? 'Home tab' : 'modal'} ${surface.view.id}` : `message ${surface.message.ts}`
    if (hits.length === 1) return hits[0]!
    if (hits.length === 0) {
      const seen = this.elements(surface).map((f) => `${String(f.element.type)} ${textOf(f.element.text) || textOf(f.element.placeholder) || f.label || f.actionId}`)
      throw new SandboxError('NOT_FOUND', `${this.id} sees no ${what.replace(/^(a|an) /, '')} in ${where}; it shows: ${seen.join(', ') || 'no controls'}`)
    }
    throw new SandboxError('AMBIGUOUS', `${what} matches ${hits.length} controls in ${where}: name the menu`)
  }

  /** Types into an external select: block_suggestion, then the option from the app's answer. */
  private async suggest(surface: Surface, found: FoundElement, optionText: string | RegExp, query: string | undefined): Promise<Obj> {
    const typed = query ?? (typeof optionText === 'string' ? optionText : '')
    const minimum = typeof found.element.min_query_length === 'number' ? found.element.min_query_length : 3
    // Slack's client asks for options only once the user typed min_query_length characters.
    if (typed.length < minimum) throw new SandboxError('INVALID_INPUT', `type at least ${minimum} characters into ${found.actionId} (pass options.query)`)
    const ack = await this.send(blockSuggestionPayload(this.core, this.profile, surface, found, typed))
    const offered = optionsOf(ack)
    if (offered.length > LIMIT.externalSelectOptions) throw new SandboxError('BAD_ACK', `the app offered ${offered.length} options, more than Slack shows`)
    const option = offered.find((o) => matches(textOf(o.text), optionText))
    if (!option) throw new SandboxError('NOT_FOUND', `the app offered no option ${String(optionText)} for "${typed}": ${offered.map((o) => textOf(o.text)).join(', ')}`)
    return option
  }

  /** Records a new selection, and tells the app unless it is an input inside a modal (sent at submit). */
  private async change(surface: Surface, found: FoundElement, entry: Obj): Promise<Ack | undefined> {
    this.core.clientState.set(this.id, this.container(surface), found.blockId, found.actionId, entry)
    if (found.place === 'input' && found.element.dispatch_action !== true) return undefined
    const { type: _type, ...selection } = entry
    const placeholder = found.element.placeholder !== undefined ? { placeholder: found.element.placeholder } : {}
    return this.send(blockActionsPayload(this.core, this.profile, surface, { type: found.element.type, action_id: found.actionId, block_id: found.blockId, ...selection, ...placeholder }))
  }

  /** Slack's client refuses to submit empty required inputs and texts outside min_length..max_length. */
  private checkInputs(view: SandboxView): void {
    const values = this.core.clientState.values(this.id, viewContainer(view.id), view.blocks)
    for (const block of view.blocks) {
      if (block.type !== 'input') continue
      const found = elementsOf([block])[0]
      if (!found) continue
      const entry = values[found.blockId]?.[found.actionId] ?? {}
      const value = entry.value
      const empty = value === null || value === '' || entry.selected_option === null || (Array.isArray(entry.selected_options) && entry.selected_options.length === 0)
      if (empty && block.optional !== true) throw new SandboxError('INVALID_INPUT', `"${found.label}" is required: Slack's client does not submit the modal`)
      if (typeof value === 'string') {
        const { min_length: min, max_length: max } = found.element
        if ((typeof min === 'number' && value.length < min) || (typeof max === 'number' && value.length > max)) {
          throw new SandboxError('INVALID_INPUT', `"${found.label}" must be ${String(min ?? 0)}–${String(max ?? '∞')} characters: Slack's client does not submit the modal`)
        }
      }
    }
  }
}
