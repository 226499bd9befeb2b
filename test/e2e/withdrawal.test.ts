import { describe, expect, it } from 'vitest'
import { MODES, startRig } from '../support/e2e.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

describe.each(MODES)('closing a question without an answer in %s mode', (mode) => {
  it('rejects with ASK_CANCELLED when a person dismisses it, and says who did', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    await slack.user(ALICE).click(message, 'Dismiss')

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_CANCELLED' })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/Dismissed by <@U0SANDBOX01>/)
  })

  it('withdraws the message and rejects with ASK_ABORTED when the agent aborts', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const controller = new AbortController()
    const answer = bridge.provider.ask({ questions: [pm], signal: controller.signal })
    const message = await postedMessage(slack, channel)

    controller.abort()

    await expect(answer).rejects.toMatchObject({ code: 'ASK_ABORTED' })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/withdrew/)
  })

  it('expires with ASK_EXPIRED after the configured timeout and says so', async () => {
    const { slack, bridge, channel } = await startRig(mode, { timeout: 300 })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    await expect(answer).rejects.toMatchObject({ code: 'ASK_EXPIRED' })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/expired/)
  })

  it('withdraws every open question on stop() and leaves nothing running', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const first = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    const rejected = expect(first).rejects.toMatchObject({ code: 'ASK_ABORTED' })

    await bridge.stop()

    await rejected
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/service stopped/)
    if (mode === 'socket') await slack.waitFor(() => slack.socketConnections() === 0)
  })
})
