/**
 * The interactive elements of a message or view, as the scripted user sees
 * them: where each one is, what it shows, and the state Slack reports for it
 * in `state.values` before the user touches it.
 */
type Obj = Record<string, unknown>

/** One element with the ids Slack keys its state and actions by. */
export interface FoundElement {
  blockId: string
  actionId: string
  element: Obj
  /** Where it sits: input blocks (modals) send nothing until submit. */
  place: 'actions' | 'accessory' | 'input'
  /** The input block's label, for finding inputs by what the user reads. */
  label?: string
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The visible text of a text object (or `''`). */
export function textOf(value: unknown): string {
  return isObj(value) && typeof value.text === 'string' ? value.text : ''
}

/** Every interactive element in `blocks`, in reading order. */
export function elementsOf(blocks: readonly Obj[] | undefined): FoundElement[] {
  const found: FoundElement[] = []
  for (const block of blocks ?? []) {
    const blockId = String(block.block_id)
    const add = (element: unknown, place: FoundElement['place'], label?: string): void => {
      if (isObj(element) && typeof element.action_id === 'string') found.push({ blockId, actionId: element.action_id, element, place, ...(label !== undefined ? { label } : {}) })
    }
    if (block.type === 'actions' && Array.isArray(block.elements)) for (const el of block.elements) add(el, 'actions')
    if (block.type === 'section') add(block.accessory, 'accessory')
    if (block.type === 'input') add(block.element, 'input', textOf(block.label))
    // A card's button acts like any button; assumed (the reference is silent): its
    // block_actions names the card's block_id, the card being a block of its own.
    if (block.type === 'carousel' && Array.isArray(block.elements)) {
      for (const card of block.elements) {
        if (!isObj(card) || !Array.isArray(card.actions)) continue
        for (const el of card.actions) if (isObj(el) && typeof el.action_id === 'string') found.push({ blockId: String(card.block_id), actionId: el.action_id, element: el, place: 'actions' })
      }
    }
  }
  return found
}

/** Every option an element offers (options and option groups). */
export function optionsOf(element: Obj): Obj[] {
  if (Array.isArray(element.options)) return element.options.filter(isObj)
  if (Array.isArray(element.option_groups)) return element.option_groups.filter(isObj).flatMap((group) => (Array.isArray(group.options) ? group.options.filter(isObj) : []))
  return []
}

const SINGLE = new Set(['static_select', 'external_select', 'radio_buttons'])
const MULTI = new Set(['multi_static_select', 'multi_external_select', 'checkboxes'])
const TEXT = new Set(['plain_text_input', 'email_text_input', 'url_text_input', 'number_input'])

export function isSingleChoice(element: Obj): boolean {
  return SINGLE.has(String(element.type))
}

export function isMultiChoice(element: Obj): boolean {
  return MULTI.has(String(element.type))
}

export function isTextInput(element: Obj): boolean {
  return TEXT.has(String(element.type))
}

/** The `state.values` entry of an element nobody touched, or `undefined` when it keeps no state (buttons, overflow). */
export function initialState(element: Obj): Obj | undefined {
  const type = String(element.type)
  if (SINGLE.has(type)) return { type, selected_option: isObj(element.initial_option) ? element.initial_option : null }
  if (MULTI.has(type)) return { type, selected_options: Array.isArray(element.initial_options) ? element.initial_options : [] }
  if (TEXT.has(type)) return { type, value: typeof element.initial_value === 'string' ? element.initial_value : null }
  if (type === 'users_select') return { type, selected_user: element.initial_user ?? null }
  if (type === 'multi_users_select') return { type, selected_users: element.initial_users ?? [] }
  if (type === 'conversations_select') return { type, selected_conversation: element.initial_conversation ?? null }
  if (type === 'multi_conversations_select') return { type, selected_conversations: element.initial_conversations ?? [] }
  if (type === 'channels_select') return { type, selected_channel: element.initial_channel ?? null }
  if (type === 'multi_channels_select') return { type, selected_channels: element.initial_channels ?? [] }
  if (type === 'datepicker') return { type, selected_date: element.initial_date ?? null }
  if (type === 'timepicker') return { type, selected_time: element.initial_time ?? null }
  if (type === 'datetimepicker') return { type, selected_date_time: element.initial_date_time ?? null }
  return undefined
}

/** Whether `text` matches what the user was told to look for (exact text, or a pattern). */
export function matches(text: string, wanted: string | RegExp): boolean {
  return typeof wanted === 'string' ? text.trim() === wanted.trim() : wanted.test(text)
}
