/**
 * The doc-test's people: alice and bob answering on the stand-in's page, as
 * a reader does in the browser while an example waits for an answer. They
 * act through the page's own endpoints (`GET /web/state`, `POST /web/act`),
 * the same ones a reader can call with curl.
 *
 * Rules, so a reader can predict every answer an example prints:
 * - alice answers any question that still shows controls, a second after it
 *   appears (so an example can show a question still open);
 * - she ticks the first box of a multi-select and submits; picks the first
 *   option of a menu; otherwise clicks the first button that is not
 *   Other…, Skip, Dismiss, Request changes…, Keep planning or Reject (so
 *   Approve, Allow once, the first option, Reply… or Answer…);
 * - a form that opens gets `billing-events` in every text box, nothing else;
 * - a question still open after alice (a quorum) gets the same from bob, and
 *   so does one only bob sees (a DM to him);
 * - while an example answers on the page itself, they hold off (`hold`), so
 *   its click never races theirs however slowly the example runs.
 */
import { elementsOf, isMultiChoice, isSingleChoice, isTextInput, optionsOf, textOf } from '../../src/sandbox/elements.js'

type Obj = Record<string, unknown>

export const ALICE = 'U0SANDBOX01'
export const BOB = 'U0SANDBOX02'
const TYPED = 'billing-events'
const PASSED_OVER = new Set(['Other…', 'Skip', 'Dismiss', 'Request changes…', 'Keep planning', 'Reject'])
const GRACE_MS = 1000
const POLL_MS = 150

interface PageMessage {
  ts: string
  blocks?: Obj[]
  ephemeral: boolean
}
interface PageSnapshot {
  channel: string
  channels: { id: string }[]
  messages: PageMessage[]
  modal: { blocks: Obj[] } | null
}

export interface Answerer {
  /** Stops answering; resolves once the step in progress is done. */
  stop(): Promise<void>
  /** Answers nothing until `resume`; resolves once the step in progress is done. */
  hold(): Promise<void>
  resume(): void
  /** What went wrong while answering (a refused click), for the test's report. */
  problems: string[]
}

function hasControls(message: PageMessage): boolean {
  return !message.ephemeral && elementsOf(message.blocks).some((found) => found.place !== 'input')
}

export function startAnswerer(pageUrl: string): Answerer {
  const base = pageUrl.replace(/\/$/, '')
  const firstSeen = new Map<string, number>()
  const answeredBy = new Map<string, Set<string>>()
  const aliceSees = new Set<string>()
  const problems: string[] = []
  let running = true
  let held = false
  /** The round in progress, so `hold` can wait for its clicks to land. */
  let current: Promise<void> = Promise.resolve()

  async function state(user: string, channel?: string): Promise<PageSnapshot> {
    const query = new URLSearchParams({ user, ...(channel ? { channel } : {}) })
    const res = await fetch(`${base}/web/state?${query}`)
    return (await res.json()) as PageSnapshot
  }

  async function act(body: Obj): Promise<void> {
    const res = await fetch(`${base}/web/act`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (!res.ok) problems.push(`${JSON.stringify(body)} → ${res.status} ${await res.text()}`)
  }

  async function answer(user: string, channel: string, message: PageMessage): Promise<void> {
    const target = { channel, ts: message.ts }
    const found = elementsOf(message.blocks).filter((f) => f.place !== 'input')
    const multi = found.find((f) => isMultiChoice(f.element))
    const single = found.find((f) => isSingleChoice(f.element))
    const button = found.find((f) => f.element.type === 'button' && !PASSED_OVER.has(textOf(f.element.text)))
    if (multi) {
      const option = optionsOf(multi.element)[0]
      if (option) await act({ action: 'toggle', user, target, actionId: multi.actionId, option: textOf(option.text) })
      await act({ action: 'click', user, target, label: 'Submit' })
    } else if (single) {
      const option = optionsOf(single.element)[0]
      if (option) await act({ action: 'choose', user, target, actionId: single.actionId, option: textOf(option.text) })
    } else if (button) {
      await act({ action: 'click', user, target, label: textOf(button.element.text), actionId: button.actionId })
    }
    const modal = (await state(user, channel)).modal
    if (modal) {
      const fills = Object.fromEntries(elementsOf(modal.blocks).filter((f) => f.place === 'input' && isTextInput(f.element)).map((f) => [f.blockId, TYPED]))
      await act({ action: 'submit', user, fills })
      if ((await state(user, channel)).modal) await act({ action: 'close', user })
    }
  }

  async function round(): Promise<void> {
    for (const user of [ALICE, BOB]) {
      const home = await state(user)
      for (const { id: channel } of home.channels) {
        const snapshot = channel === home.channel ? home : await state(user, channel)
        for (const message of snapshot.messages.filter(hasControls)) {
          const key = `${channel}/${message.ts}`
          const seen = firstSeen.get(key) ?? Date.now()
          firstSeen.set(key, seen)
          const done = answeredBy.get(key) ?? new Set<string>()
          answeredBy.set(key, done)
          if (user === ALICE) aliceSees.add(key)
          // bob only once alice has had her turn on it (a quorum's second approval), or on what only he sees (his DMs).
          if (done.has(user) || (user === BOB && aliceSees.has(key) && !done.has(ALICE)) || Date.now() - seen < GRACE_MS) continue
          done.add(user)
          await answer(user, channel, message)
        }
      }
    }
  }

  const loop = (async () => {
    while (running) {
      if (!held) {
        current = round().catch((error: unknown) => {
          problems.push(`answering: ${(error as Error).message}`)
        })
        await current
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  })()

  return {
    problems,
    async hold() {
      held = true
      await current
    },
    resume() {
      held = false
    },
    async stop() {
      running = false
      await loop
    },
  }
}
