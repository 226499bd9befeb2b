import { describe, expect, it } from 'vitest'
import { MODES, startRig } from '../support/e2e.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

describe.each(MODES)('closing a question without an answer in %s mode', (mode) => {
  it('rejects with ASK_CANCELLED when a person dismisses it, and says who did', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pm] })
    const rejection = expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_CANCELLED' })
    const message = await postedMessage(slack, channel)

    await slack.user(ALICE).click(message, 'Dismiss')

    await rejection
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

describe.each(MODES)('a stale click in %s mode', (mode) => {
  it('tells the person the question was closed, privately, and changes nothing', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const controller = new AbortController()
    const answer = bridge.provider.ask({ questions: [pm], signal: controller.signal })
    const asPosted = structuredClone(await postedMessage(slack, channel))
    controller.abort()
    await expect(answer).rejects.toMatchObject({ code: 'ASK_ABORTED' })
    const withdrawn = await settledMessage(slack, channel, asPosted.ts)

    await slack.user(ALICE).click({ stale: asPosted }, 'npm')

    const notice = await slack.waitFor(() => slack.ephemerals(ALICE).at(-1))
    expect(notice.text).toMatch(/closed/)
    expect(slack.messages(channel).find((m) => m.ts === asPosted.ts)?.blocks).toEqual(withdrawn.blocks)
  })
})
