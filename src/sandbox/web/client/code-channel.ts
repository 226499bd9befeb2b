/**
 * A code channel's parts above its messages: the context bar, and each
 * canvas tab with its sections and the open comment threads on them. A
 * person comments on a section (on the text they selected in it, or on the
 * whole section), as in Slack's canvas with comment access.
 */
import type { PageCodeChannel, PageSnapshot } from '../wire.js'
import { byId, el } from './dom.js'
import { act } from './live.js'

/** The passage commented on: the selection when it lies inside this section, else the whole section. */
function passageIn(node: HTMLElement, markdown: string): string {
  const selection = window.getSelection()
  const picked = selection?.toString().trim() ?? ''
  if (picked && selection?.anchorNode && node.contains(selection.anchorNode) && markdown.includes(picked)) return picked
  return markdown
}

function sectionNode(canvasId: string, access: string, section: PageCodeChannel['canvases'][number]['sections'][number]): HTMLElement {
  const box = el('div', 'canvas-section')
  box.dataset.section = section.id
  const text = el('div', 'canvas-text', section.markdown)
  box.appendChild(text)
  for (const comment of section.comments) {
    const note = el('div', 'canvas-comment')
    note.appendChild(el('span', 'canvas-quote', `“${comment.quoted}”`))
    note.appendChild(el('strong', null, comment.userName))
    note.appendChild(el('span', null, ` ${comment.text}`))
    box.appendChild(note)
  }
  if (access !== 'comment' && access !== 'write') return box
  const form = el('form', 'canvas-comment-form')
  const input = el('input', 'text')
  input.placeholder = 'Comment on this step…'
  input.setAttribute('aria-label', `Comment on: ${section.markdown.slice(0, 60)}`)
  const send = el('button', 'btn small', 'Comment')
  send.type = 'submit'
  form.append(input, send)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const value = input.value.trim()
    if (!value) return
    void act({ action: 'comment', canvasId, quotedText: passageIn(text, section.markdown), text: value }, send)
  })
  box.appendChild(form)
  return box
}

export function renderCodeChannel(snap: PageSnapshot): void {
  const pane = byId('code-channel')
  const code = snap.codeChannel
  const sig = JSON.stringify(code)
  if (pane.dataset.sig === sig) return
  pane.dataset.sig = sig
  pane.replaceChildren()
  pane.hidden = code === null
  if (!code) return
  const bar = el('div', 'context-bar')
  bar.appendChild(el('span', 'muted', code.archived ? 'Code channel · archived' : 'Code channel'))
  for (const item of code.contextBar) bar.appendChild(el('span', 'context-item', item.label))
  pane.appendChild(bar)
  for (const canvas of code.canvases) {
    const tab = el('section', 'canvas')
    tab.setAttribute('aria-label', `Canvas ${canvas.label}`)
    tab.appendChild(el('div', 'canvas-title', `${canvas.label} · ${canvas.access === 'comment' ? 'you can comment' : canvas.access}`))
    for (const section of canvas.sections) tab.appendChild(sectionNode(canvas.id, canvas.access, section))
    pane.appendChild(tab)
  }
}
