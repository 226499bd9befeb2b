/**
 * The interactive elements of a question: which control fits how many
 * options, and the elements themselves. Values on the wire are option
 * indices (STYLE.md §5); labels are shown shortened when Slack needs it and
 * mapped back exactly by the provider.
 */
import type { ActionsBlock, Button, Checkboxes, ExternalSelect, MultiExternalSelect, MultiStaticSelect, PlainTextOption, RadioButtons, StaticSelect } from '@slack/types'
import { encodeActionId, encodeInputBlockId } from './ids.js'
import { wordsFor } from './i18n.js'
import { LIMIT } from './limits.js'
import { plain } from './text.js'
import type { Locale, OptionView, QuestionView } from './view.js'

/** How a question's options are offered in a message. */
export type MessageControl = 'reply' | 'buttons' | 'select' | 'external-select' | 'checkboxes' | 'multi-select' | 'multi-external-select'

/** How a question's options are offered in the batch form. */
export type FormControl = 'text-only' | 'radio' | 'select' | 'external-select' | 'checkboxes' | 'multi-select' | 'multi-external-select'

/** Whether every label shows whole on a button. */
function labelsFitButtons(options: OptionView[]): boolean {
  return options.every((o) => o.label.length <= LIMIT.buttonText && o.label.trim() !== '')
}

/**
 * Single-select: buttons (one tap answers) while few and short, a select menu
 * up to LIMIT.selectOptions, an options-load menu beyond. Multi-select:
 * checkboxes, a multi-select menu, an options-load multi-select.
 */
export function messageControl(question: QuestionView): MessageControl {
  const n = question.options.length
  if (n === 0) return 'reply'
  if (question.multiSelect) return n <= LIMIT.checkboxOptions ? 'checkboxes' : n <= LIMIT.selectOptions ? 'multi-select' : 'multi-external-select'
  if (n <= LIMIT.cardButtons && labelsFitButtons(question.options)) return 'buttons'
  return n <= LIMIT.selectOptions ? 'select' : 'external-select'
}

/** The form's input for a question: radio buttons or checkboxes while they fit, menus beyond. */
export function formControl(question: QuestionView): FormControl {
  const n = question.options.length
  if (n === 0) return 'text-only'
  if (question.multiSelect) return n <= LIMIT.checkboxOptions ? 'checkboxes' : n <= LIMIT.selectOptions ? 'multi-select' : 'multi-external-select'
  return n <= LIMIT.checkboxOptions ? 'radio' : n <= LIMIT.selectOptions ? 'select' : 'external-select'
}

/** Whether a control shows every label whole (else the message lists the options in full). */
export function controlShowsLabels(question: QuestionView, control: MessageControl | FormControl): boolean {
  if (control === 'external-select' || control === 'multi-external-select') return false
  const max = control === 'buttons' ? LIMIT.buttonText : LIMIT.optionText
  return question.options.every((o) => o.label.length <= max)
}

/**
 * Whether the control shows every option whole, labels and descriptions, so
 * the card needs no list of them above it. Checkboxes show a description
 * under each label; buttons and menus show labels only.
 */
export function controlShowsOptions(question: QuestionView, control: MessageControl): boolean {
  if (!controlShowsLabels(question, control)) return false
  if (control === 'checkboxes') return question.options.every((o) => (o.description?.length ?? 0) <= LIMIT.optionDescription)
  return question.options.every((o) => o.description === undefined || o.description.trim() === '')
}

/** An option of a menu, checkbox group or radio group: the value is the option's index. */
export function optionObject(locale: Locale, option: OptionView, index: number, withDescription: boolean): PlainTextOption {
  const object: PlainTextOption = { text: plain(option.label, LIMIT.optionText, wordsFor(locale).blank), value: String(index) }
  if (withDescription && option.description !== undefined && option.description.trim() !== '') {
    object.description = plain(option.description, LIMIT.optionDescription)
  }
  return object
}

export function optionButton(locale: Locale, askId: string, question: number, option: OptionView, index: number, primary = false): Button {
  const button: Button = {
    type: 'button',
    action_id: encodeActionId({ kind: 'option', askId, question, option: index }),
    text: plain(option.label, LIMIT.buttonText, wordsFor(locale).blank),
    value: String(index),
  }
  if (primary) button.style = 'primary'
  return button
}

/** A button of ours (Other…, Dismiss, Submit…): fixed words, an id from the codec. */
export function wordButton(actionId: string, text: string, style?: 'primary' | 'danger'): Button {
  const button: Button = { type: 'button', action_id: actionId, text: plain(text, LIMIT.buttonText) }
  if (style !== undefined) button.style = style
  return button
}

type ChoiceElement = StaticSelect | ExternalSelect | Checkboxes | MultiStaticSelect | MultiExternalSelect | RadioButtons

/**
 * The choice element of a question (a select, checkboxes or radio buttons),
 * for a message's actions block or a form's input block.
 */
export function choiceElement(
  locale: Locale,
  askId: string,
  qi: number,
  question: QuestionView,
  control: Exclude<MessageControl | FormControl, 'reply' | 'buttons' | 'text-only'>,
  /** Radio buttons and checkboxes: show descriptions (false when a list above already shows them whole). */
  describe = true,
): ChoiceElement {
  const words = wordsFor(locale)
  const options = (withDescription: boolean) => question.options.map((o, i) => optionObject(locale, o, i, withDescription))
  const n = question.options.length
  switch (control) {
    case 'select':
      return { type: 'static_select', action_id: encodeActionId({ kind: 'select', askId, question: qi }), placeholder: plain(words.choose, LIMIT.placeholderText), options: options(false) }
    case 'external-select':
      return { type: 'external_select', action_id: encodeActionId({ kind: 'external-select', askId, question: qi }), placeholder: plain(words.search(n), LIMIT.placeholderText), min_query_length: 0 }
    case 'radio':
      return { type: 'radio_buttons', action_id: encodeActionId({ kind: 'select', askId, question: qi }), options: options(describe) }
    case 'checkboxes':
      return { type: 'checkboxes', action_id: encodeActionId({ kind: 'checkboxes', askId, question: qi }), options: options(describe) }
    case 'multi-select':
      return { type: 'multi_static_select', action_id: encodeActionId({ kind: 'multi-select', askId, question: qi }), placeholder: plain(words.chooseMany, LIMIT.placeholderText), options: options(false) }
    case 'multi-external-select':
      return { type: 'multi_external_select', action_id: encodeActionId({ kind: 'multi-external-select', askId, question: qi }), placeholder: plain(words.search(n), LIMIT.placeholderText), min_query_length: 0 }
    default: {
      const unreachable: never = control
      return unreachable
    }
  }
}

/** An actions block whose state the provider reads at Submit: its block_id names the question. */
export function choiceActions(locale: Locale, askId: string, qi: number, question: QuestionView, control: Parameters<typeof choiceElement>[4], describe = true): ActionsBlock {
  return { type: 'actions', block_id: encodeInputBlockId({ kind: 'choice', question: qi }), elements: [choiceElement(locale, askId, qi, question, control, describe)] }
}

function normalise(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase()
}

/** What an options-load menu answers: matching options, values are indices. */
export interface ExternalSelectOptions {
  options: PlainTextOption[]
}

/**
 * The options an external (options-load) menu shows for what the person has
 * typed: every option whose label or description contains the query (case
 * and width folded), in order, at most LIMIT.externalSelectOptions.
 */
export function externalSelectOptions(question: QuestionView, query: string, locale: Locale = 'en'): ExternalSelectOptions {
  const q = normalise(query.trim())
  const options: PlainTextOption[] = []
  for (let i = 0; i < question.options.length && options.length < LIMIT.externalSelectOptions; i++) {
    const option = question.options[i]!
    if (q === '' || normalise(option.label).includes(q) || normalise(option.description ?? '').includes(q)) options.push(optionObject(locale, option, i, false))
  }
  return { options }
}
