import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AskLifecycle } from '../../src/bridge/ask-lifecycle.js'
import { SlackCallError } from '../../src/slack/slack-call-error.js'
import type { MessageContent } from '../../src/slack/slack-port.js'
import { TIMING } from '../../src/slack/timing.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { recordingLogger } from '../support/e2e.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }
const answers = [{ id: 'pm', selected: ['npm'] }]

/** Slack's Web API as it looks while Slack is down: every chat.update fails (after the client's own retries). */
class SlackThatGoesDown extends FakeSlackPort {
  down = false
  tries = 0
  override async updateMessage(channel: string, ts: string, content: MessageContent): Promise<void> {
    this.tries++
    if (this.down) throw new SlackCallError('chat.update', 'request_failed', 'connect ECONNREFUSED')
    return super.updateMessage(channel, ts, content)
  }
}

const lifecycles: AskLifecycle[] = []
afterEach(async () => {
  await Promise.all(lifecycles.splice(0).map((lifecycle) => lifecycle.stop()))
})

async function settledWhileSlackIsDown() {
  const slack = new SlackThatGoesDown()
  const store = new MemoryAskStore()
  const logger = recordingLogger()
  const clock = { at: Date.now() }
  const lifecycle = testLifecycle({ store, slack, owner: 'service', logger, now: () => clock.at })
  lifecycles.push(lifecycle)
  const record = await lifecycle.open({ questions: [question] })
  slack.down = true
  await lifecycle.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by: { id: 'U1' }, at: clock.at, answers }, answer: { answers } })
  return { slack, store, logger, clock, lifecycle, record }
}

describe('a settled card whose update fails', () => {
  it('is updated once Slack is back, without a restart', async () => {
    const { slack, store, lifecycle, record } = await settledWhileSlackIsDown()
    expect(slack.messages[0]!.updates).toHaveLength(0)

    slack.down = false

    await vi.waitFor(() => expect(slack.messages[0]!.updates).toHaveLength(1), { timeout: TIMING.updateRetryFirstMs * 4, interval: 20 })
    expect(JSON.stringify(slack.messages[0]!.updates[0])).toContain('npm')
    expect((await store.get(record.id))?.finalMessageShown).toBe(true)
    expect(lifecycle.stuckCards()).toBe(0)
  })

  it('is tried again with a growing pause while Slack stays down, logging the failure once', async () => {
    const { slack, logger } = await settledWhileSlackIsDown()

    await new Promise((resolve) => setTimeout(resolve, TIMING.updateRetryFirstMs * 3 + 500))

    // The first try, then after 1 s and 2 s more: a handful, not one every moment (a loaded machine may be a try behind).
    expect(slack.tries).toBeGreaterThanOrEqual(2)
    expect(slack.tries).toBeLessThanOrEqual(3)
    expect(logger.lines.filter((line) => line.includes('could not be updated'))).toHaveLength(1)
  })

  it('counts as stuck after a minute of failures, logged once, until it lands', async () => {
    const { slack, logger, clock, lifecycle } = await settledWhileSlackIsDown()
    clock.at += TIMING.cardStuckAfterMs

    await vi.waitFor(() => expect(lifecycle.stuckCards()).toBe(1), { timeout: TIMING.updateRetryFirstMs * 3, interval: 20 })
    await vi.waitFor(() => expect(slack.tries).toBeGreaterThanOrEqual(3), { timeout: TIMING.updateRetryFirstMs * 4, interval: 20 })
    expect(logger.lines.filter((line) => /its card has shown the open question for \d+ s/.test(line))).toHaveLength(1)

    slack.down = false

    await vi.waitFor(() => expect(slack.messages[0]!.updates).toHaveLength(1), { timeout: TIMING.updateRetryFirstMs * 8, interval: 20 })
    expect(lifecycle.stuckCards()).toBe(0)
    expect(logger.lines.some((line) => /its card is updated now/.test(line))).toBe(true)
  }, 20_000)

  it('is not retried when Slack says the message is gone', async () => {
    const { slack, logger } = await settledWhileSlackIsDown()
    slack.down = false
    slack.messages.splice(0)

    await new Promise((resolve) => setTimeout(resolve, TIMING.updateRetryFirstMs * 3 + 500))

    expect(slack.tries).toBe(2)
    expect(logger.lines.filter((line) => line.includes('message_not_found'))).toHaveLength(1)
  })
})
