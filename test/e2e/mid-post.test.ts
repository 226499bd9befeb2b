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

/** A store that keeps the message from being saved on the ask until `release()`. */
function storeHoldingTheMessage() {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const store = hookedStore(new SqliteAskStore(':memory:'), { attachMessage: () => released })
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
