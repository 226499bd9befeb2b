/**
 * The stand-in page's browser code, bundled to `/web/app.js` at build time
 * (scripts/build-page.mjs): wires the page's controls and starts the live
 * connection. The page shell is `../page-html.ts`; its look, `../page-css.ts`.
 */
import { HOME_PICK, openChannel, render, switchUser } from './app.js'
import { byId } from './dom.js'
import { openHome } from './home.js'
import { act, connect, onSnapshot, refresh, toast } from './live.js'
import { closeModal } from './modal.js'
import { S } from './state.js'

function start(): void {
  const userSelect = byId<HTMLSelectElement>('user-select')
  const userForm = byId<HTMLFormElement>('user-form')
  const userId = byId<HTMLInputElement>('user-id')
  userSelect.addEventListener('change', () => {
    const value = userSelect.value
    if (value !== '__other') {
      userForm.hidden = true
      switchUser(value)
      return
    }
    userSelect.value = S.user
    userForm.hidden = false
    userId.focus()
  })
  userForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const id = userId.value.trim().toUpperCase()
    if (!/^[UW][A-Z0-9]{1,30}$/.test(id)) {
      toast('A user id looks like U0SANDBOX03')
      return
    }
    userForm.hidden = true
    switchUser(id)
  })
  const channelSelect = byId<HTMLSelectElement>('channel-select')
  channelSelect.addEventListener('change', () => (channelSelect.value === HOME_PICK ? openHome() : openChannel(channelSelect.value)))
  byId('thread-back').addEventListener('click', () => {
    S.thread = null
    byId('thread').hidden = true
  })
  const replyForm = byId<HTMLFormElement>('thread-reply')
  const replyText = byId<HTMLTextAreaElement>('thread-reply-text')
  replyForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const text = replyText.value
    if (!S.thread || !S.snap || text.trim() === '') return
    void act({ action: 'reply', target: { channel: S.snap.channel, ts: S.thread }, text }, replyForm.querySelector('button')).then((result) => {
      if (result) replyText.value = ''
    })
  })
  replyText.addEventListener('keydown', (event) => {
    // Enter sends, Shift+Enter starts a new line: as in Slack's composer.
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      replyForm.requestSubmit()
    }
  })
  document.addEventListener('click', (event) => {
    document.querySelectorAll<HTMLElement>('.menu:not([hidden])').forEach((menu) => {
      if (!menu.parentNode?.contains(event.target as Node)) menu.hidden = true
    })
  })
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    const dialogs = byId('dialog-root')
    if (dialogs.children.length) dialogs.replaceChildren()
    else if (S.modalId) closeModal()
  })
  onSnapshot(render)
  connect()
  void refresh()
}

start()
