/**
 * Block Kit's `carousel` block: its cards side by side in a row that
 * scrolls sideways (snapping card by card), as Slack's phone app swipes
 * through them. Each card shows its title, subtitle, body and, at its foot,
 * its buttons, which act like any button.
 */
import type { RenderContext } from './context.js'
import { arr, el, isObj, type Obj } from './dom.js'
import { renderElement } from './elements.js'
import { textObject } from './text-object.js'

function card(c: Obj, ctx: RenderContext): HTMLElement {
  const node = el('div', 'b-card')
  if (isObj(c.title)) node.appendChild(textObject(c.title, 'b-card-title'))
  if (isObj(c.subtitle)) node.appendChild(textObject(c.subtitle, 'b-card-subtitle'))
  if (isObj(c.body)) node.appendChild(textObject(c.body, 'b-card-body'))
  const actions = el('div', 'b-card-actions')
  for (const x of arr(c.actions)) if (isObj(x)) actions.appendChild(renderElement(x, c, ctx))
  if (actions.childElementCount > 0) node.appendChild(actions)
  return node
}

export function carouselBlock(b: Obj, ctx: RenderContext): HTMLElement {
  const row = el('div', 'b-carousel')
  for (const c of arr(b.elements)) if (isObj(c) && c.type === 'card') row.appendChild(card(c, ctx))
  return row
}
