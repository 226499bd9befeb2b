/**
 * The app's modal, drawn from the snapshot and rebuilt only when the view
 * itself changed, so a half-typed answer survives someone else's update.
 * Submitting checks required inputs first, as Slack's client does.
 */
import type { PageModal, PageSnapshot } from '../wire.js'
import { renderBlocks } from './blocks.js'
import { byId, el, textOf } from './dom.js'
import { showInputError } from './elements.js'
import { act } from './live.js'
import { S } from './state.js'

export function renderModal(snap: PageSnapshot): void {
  const root = byId('modal-root')
  const m = snap.modal
  if (!m) {
    if (S.modalId) {
      delete S.drafts[S.modalId]
      root.replaceChildren()
      S.modalSig = ''
      S.modalId = null
    }
    return
  }
  const sig = JSON.stringify(m)
  if (sig === S.modalSig) return
  const opening = S.modalId !== m.id
  S.modalSig = sig
  S.modalId = m.id
  const ctx = { target: 'modal' as const, state: m.state, errors: m.errors, viewId: m.id }
  const backdrop = el('div', 'backdrop')
  const dialog = el('div', 'modal')
  const head = el('div', 'modal-head')
  const foot = el('div', 'modal-foot')
  const title = el('h2', null, textOf(m.title))
  const x = el('button', 'icon-btn', '\u2715')
  const body = renderBlocks(m.blocks, ctx)
  dialog.setAttribute('role', 'dialog')
  dialog.setAttribute('aria-modal', 'true')
  title.id = 'modal-title'
  dialog.setAttribute('aria-labelledby', 'modal-title')
  x.type = 'button'
  x.setAttribute('aria-label', 'Close')
  x.addEventListener('click', closeModal)
  head.append(title, x)
  body.className = 'modal-body blocks'
  const cancel = el('button', 'btn', textOf(m.close) || 'Cancel')
  cancel.type = 'button'
  cancel.addEventListener('click', closeModal)
  foot.appendChild(cancel)
  if (m.submit) {
    const submit = el('button', 'btn primary', textOf(m.submit))
    submit.type = 'button'
    submit.addEventListener('click', () => submitModal(m, body, submit))
    foot.appendChild(submit)
  }
  dialog.append(head, body, foot)
  backdrop.appendChild(dialog)
  root.replaceChildren(backdrop)
  if (opening) body.querySelector<HTMLElement>('textarea, input, select')?.focus()
}

export function closeModal(): void {
  void act({ action: 'close' }, null)
}

function submitModal(m: PageModal, body: HTMLElement, button: HTMLElement): void {
  const fills: Record<string, string> = {}
  let missing = false
  body.querySelectorAll<HTMLElement>('.input-block').forEach((wrap) => {
    const input = wrap.querySelector<HTMLInputElement | HTMLTextAreaElement>('[data-block-id].text')
    if (!input) return
    const id = wrap.dataset.blockId ?? ''
    const block = m.blocks.find((b) => b.block_id === id)
    fills[id] = input.value
    // Slack's client refuses an empty required input itself, with this line under it.
    if (block && block.optional !== true && input.value.trim() === '') {
      missing = true
      showInputError(wrap, 'Please complete this required field.')
    }
  })
  if (!missing) void act({ action: 'submit', fills }, button)
}
