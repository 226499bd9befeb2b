/**
 * Slack gives every block a `block_id` and every interactive element an
 * `action_id` when the app sent none, and returns the message with them: the
 * keys of `state.values` are those ids, so the stand-in must do the same.
 */
import type { IdSource } from './ids.js'

type Obj = Record<string, unknown>

const NO_ACTION_ID = new Set(['image', 'plain_text', 'mrkdwn'])

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function fillElement(element: unknown, ids: IdSource): unknown {
  if (!isObj(element) || typeof element.type !== 'string' || NO_ACTION_ID.has(element.type)) return element
  return element.action_id === undefined ? { ...element, action_id: ids.short() } : element
}

/** A deep copy of `blocks` with every missing block_id and action_id filled in. */
export function fillIds(blocks: Obj[], ids: IdSource): Obj[] {
  return blocks.map((raw) => {
    const block: Obj = structuredClone(raw)
    if (block.block_id === undefined) block.block_id = ids.short()
    if (block.type === 'actions' && Array.isArray(block.elements)) block.elements = block.elements.map((el) => fillElement(el, ids))
    if (block.type === 'section' && block.accessory !== undefined) block.accessory = fillElement(block.accessory, ids)
    if (block.type === 'input') block.element = fillElement(block.element, ids)
    // A carousel's cards are blocks of their own: each gets a block_id, its buttons action_ids.
    if (block.type === 'carousel' && Array.isArray(block.elements)) {
      block.elements = block.elements.map((card) => {
        if (!isObj(card)) return card
        const filled: Obj = card.block_id === undefined ? { ...card, block_id: ids.short() } : { ...card }
        if (Array.isArray(filled.actions)) filled.actions = filled.actions.map((el) => fillElement(el, ids))
        return filled
      })
    }
    return block
  })
}
