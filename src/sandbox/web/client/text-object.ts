/** A Block Kit text object (`plain_text` or `mrkdwn`) as a DOM node. */
import { el, isObj, str } from './dom.js'
import { textWithEmoji } from './emoji.js'
import { mrkdwn } from './mrkdwn.js'

export function textObject(t: unknown, cls?: string | null, tag: 'div' | 'span' | 'p' = 'div'): HTMLElement {
  const node = el(tag, cls)
  if (!isObj(t)) return node
  if (t.type === 'mrkdwn') mrkdwn(str(t.text), node)
  else if (t.emoji === false) node.textContent = str(t.text)
  else textWithEmoji(str(t.text), node)
  return node
}
