/**
 * Block Kit's `container` block: a title (plain_text, or a rich_text title
 * that wins over it), an optional subtitle, and its child blocks. A
 * collapsible container is a `<details>` whose title row toggles it, closed
 * at first when `default_collapsed` is set, as Slack draws it on desktop and
 * phone alike; a fixed one is a titled box.
 */
import { el, isObj, type Obj } from './dom.js'
import { richText } from './rich-text.js'
import { textObject } from './text-object.js'

/** The head of the container: its title and, under it, the subtitle. */
function head(b: Obj, tag: 'summary' | 'div'): HTMLElement {
  const node = el(tag, 'b-container-head')
  node.appendChild(isObj(b.rich_text_title) ? richText(b.rich_text_title) : textObject(b.title, 'b-container-title'))
  if (isObj(b.subtitle)) node.appendChild(textObject(b.subtitle, 'b-container-subtitle'))
  return node
}

export function containerBlock(b: Obj, renderChildren: (blocks: unknown) => HTMLElement): HTMLElement {
  const width = typeof b.width === 'string' ? b.width : 'standard'
  const children = renderChildren(b.child_blocks)
  children.classList.add('b-container-body')
  if (b.is_collapsible === true) {
    const details = el('details', `b-container width-${width}`)
    details.open = b.default_collapsed !== true
    details.appendChild(head(b, 'summary'))
    details.appendChild(children)
    return details
  }
  const box = el('div', `b-container width-${width}${b.has_header_divider === true ? ' divided' : ''}`)
  box.appendChild(head(b, 'div'))
  box.appendChild(children)
  return box
}
