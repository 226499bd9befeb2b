import { describe, expect, it } from 'vitest'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { MODES, startRig } from '../support/e2e.js'
import { hookedStore } from '../support/hooked-store.js'
import { settledMessage, visibleMessage, visibleText } from '../support/messages.js'

// The ordinary path (message saved on the ask, then a click) is what the
// other end-to-end suites drive. These hold the bridge between posting the
// message and saving it on the ask, and act in that window on purpose.

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** A store that keeps the message from being saved on the ask until `release()` (with `firstOnly`, only the poster's own save). */
function storeHoldingTheMessage({ firstOnly = false } = {}) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let saves = 0
  const store = hookedStore(new SqliteAskStore(':memory:'), { attachMessage: () => (firstOnly && saves++ > 0 ? undefined : released) })
  return { store, release }
}

describe.each(MODES)('acting while the bridge is still posting, in %s mode', (mode) => {
  it('answers a click that lands before the message is saved, and the message shows the answer once it is', async () => {
    const { store, release } = storeHoldingTheMessage()
    const { slack, bridge, channel } = await startRig(mode, { state: store })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await visibleMessage(slack, channel)

    await slack.user(ALICE).click(message, 'pnpm')
    while ((await store.listPending()).length > 0) await new Promise((resolve) => setTimeout(resolve, 5))
    release()
    const result = await answer

    expect(result).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain(ALICE)
  })

  it('clears the buttons of a card its poster never saved, once a late click after the ask closed names it', async () => {
    // The poster stops between Slack storing the card and saving it on the ask (as if killed there, until the test ends); later saves go through.
    const { store, release } = storeHoldingTheMessage({ firstOnly: true })
    const { slack, bridge, channel } = await startRig(mode, { state: store })
    const controller = new AbortController()
    bridge.provider.ask({ questions: [pm], signal: controller.signal }).catch(() => undefined)
    try {
      const message = await visibleMessage(slack, channel)
      controller.abort()
      while ((await store.listPending()).length > 0) await new Promise((resolve) => setTimeout(resolve, 5))

      await slack.user(ALICE).click(message, 'pnpm')
      const told = await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0], { timeoutMs: 5000 })
      // The click's adoption waits a few seconds for a poster that is only slow.
      const card = await settledMessage(slack, channel, message.ts, 10_000)

      expect(told.text).toMatch(/closed/i)
      expect(visibleText(card)).toMatch(/withdr/i)
    } finally {
      // Before the rig stops, which waits for the poster.
      release()
    }
  })

  it('withdraws a question aborted before its message is saved, once the message exists', async () => {
    const { store, release } = storeHoldingTheMessage()
    const { slack, bridge, channel } = await startRig(mode, { state: store })
    const controller = new AbortController()
    const answer = bridge.provider.ask({ questions: [pm], signal: controller.signal })
    const rejection = expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
    const message = await visibleMessage(slack, channel)

    controller.abort()
    release()

    await rejection
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/withdr/i)
  })
})
