import { decodeActionId, decodeInputBlockId } from '../../blocks/ids.js'
import type { AskUserQuestionAnswerItem, ValidQuestion } from '../contract/index.js'
import type { InputState, StateValues } from '../slack/payloads.js'

/**
 * Option values on the wire are indices (STYLE.md §5): map them back to the
 * exact labels kept in the record, in the question's option order (so the
 * answer does not depend on whether Slack drew checkboxes or a menu, or on
 * the order of clicks). `null` when a value is not an index of this question
 * (a forged or stale payload).
 */
export function labelsOf(question: ValidQuestion, values: readonly string[]): string[] | null {
  const indices = new Set<number>()
  for (const value of values) {
    const index = /^\d+$/.test(value) ? Number(value) : -1
    if (!question.options[index]) return null
    indices.add(index)
  }
  return [...indices].sort((a, b) => a - b).map((index) => question.options[index]!.label)
}

function selectedValues(state: InputState): string[] {
  if (state.selected_options) return state.selected_options.map((option) => option.value)
  if (state.selected_option) return [state.selected_option.value]
  return []
}

/**
 * A multi-select question's current choice in a message, read from the
 * click's `state.values` (what that person ticked, as Slack reports it).
 */
export function messageSelection(values: StateValues | undefined, askId: string, question: number): string[] {
  for (const block of Object.values(values ?? {})) {
    for (const [actionId, state] of Object.entries(block)) {
      const ref = decodeActionId(actionId)
      if (!ref || ref.askId !== askId || !('question' in ref) || ref.question !== question) continue
      if (ref.kind === 'checkboxes' || ref.kind === 'multi-select' || ref.kind === 'multi-external-select') return selectedValues(state)
    }
  }
  return []
}

/** One question's inputs in the batch form. */
export interface FormEntry {
  question: number
  values: string[]
  otherText?: string
  choiceBlockId?: string
  otherBlockId?: string
}

/** The batch form's submitted inputs, by question index. */
export function formEntries(values: StateValues): Map<number, FormEntry> {
  const entries = new Map<number, FormEntry>()
  for (const [blockId, block] of Object.entries(values)) {
    const ref = decodeInputBlockId(blockId)
    if (!ref || ref.kind === 'text') continue
    const entry = entries.get(ref.question) ?? { question: ref.question, values: [] }
    for (const state of Object.values(block)) {
      if (ref.kind === 'choice') {
        entry.values.push(...selectedValues(state))
        entry.choiceBlockId = blockId
      } else {
        const text = state.value?.trim()
        if (text) entry.otherText = text
        entry.otherBlockId = blockId
      }
    }
    entries.set(ref.question, entry)
  }
  return entries
}

/** The single text box of the Other and feedback modals. */
export function modalText(values: StateValues): string {
  for (const [blockId, block] of Object.entries(values)) {
    if (decodeInputBlockId(blockId)?.kind !== 'text') continue
    for (const state of Object.values(block)) return state.value ?? ''
  }
  return ''
}

export type FormItemResult = { ok: true; item: AskUserQuestionAnswerItem } | { ok: false; blockId: string; problem: 'both' | 'invalid' }

/**
 * One form entry as an answer item. The seam's custom answer replaces the
 * options, so an entry with both would silently lose the ticked options:
 * the form asks the person to keep one instead.
 */
export function formItem(question: ValidQuestion, entry: FormEntry | undefined): FormItemResult {
  if (!entry) return { ok: true, item: { id: question.id, selected: [] } }
  const labels = labelsOf(question, entry.values)
  if (labels === null) return { ok: false, blockId: entry.choiceBlockId ?? '', problem: 'invalid' }
  if (entry.otherText !== undefined) {
    if (labels.length > 0) return { ok: false, blockId: entry.otherBlockId ?? entry.choiceBlockId ?? '', problem: 'both' }
    return { ok: true, item: { id: question.id, selected: [], custom: entry.otherText } }
  }
  return { ok: true, item: { id: question.id, selected: question.multiSelect ? labels : labels.slice(0, 1) } }
}
