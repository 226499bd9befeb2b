/** Block Kit's `confirm` object: the page's own dialog, asked before an action is sent. */
import { byId, el, isObj, nextId, textOf } from './dom.js'
import { textObject } from './text-object.js'

/** Runs `go` at once without a confirm object, else after the person confirms (`cancelled` if they do not). */
export function confirmFirst(confirm: unknown, go: () => void, cancelled?: () => void): void {
  if (!isObj(confirm)) {
    go()
    return
  }
  const root = byId('dialog-root')
  const backdrop = el('div', 'backdrop')
  const dialog = el('div', 'modal dialog')
  const title = el('h2', null, textOf(confirm.title) || 'Are you sure?')
  const head = el('div', 'modal-head')
  const body = el('div', 'modal-body')
  const foot = el('div', 'modal-foot')
  const no = el('button', 'btn', textOf(confirm.deny) || 'Cancel')
  const yes = el('button', `btn ${confirm.style === 'danger' ? 'danger' : 'primary'}`, textOf(confirm.confirm) || 'Yes')
  dialog.setAttribute('role', 'alertdialog')
  dialog.setAttribute('aria-modal', 'true')
  title.id = nextId('dialog-title-')
  dialog.setAttribute('aria-labelledby', title.id)
  head.appendChild(title)
  body.appendChild(textObject(confirm.text, null, 'p'))
  no.type = yes.type = 'button'
  no.addEventListener('click', () => {
    root.replaceChildren()
    cancelled?.()
  })
  yes.addEventListener('click', () => {
    root.replaceChildren()
    go()
  })
  foot.append(no, yes)
  dialog.append(head, body, foot)
  backdrop.appendChild(dialog)
  root.replaceChildren(backdrop)
  yes.focus()
}
