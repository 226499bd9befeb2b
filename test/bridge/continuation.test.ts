import { describe, expect, it } from 'vitest'
import { postContinuation } from '../../src/bridge/continuation.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { recordingLogger } from '../support/e2e.js'

const part = (n: number) => ({ text: `Part ${n}`, blocks: [] })
const file = { filename: 'plan.md', title: 'Plan', content: '# Plan' }

function setup() {
  const slack = new FakeSlackPort()
  const logger = recordingLogger()
  const deps = { slack, pacer: new ChannelPacer({ intervalMs: 0 }), logger, sleep: async () => undefined }
  return { slack, logger, deps }
}

describe('postContinuation', () => {
  it('posts the thread parts in order under the card, then the file', async () => {
    const { slack, deps } = setup()

    await postContinuation(deps, 'A1', { channel: 'C1', ts: '1.000001' }, { thread: [part(1), part(2), part(3)], file })

    expect(slack.messages.map((m) => [m.content.text, m.threadTs])).toEqual([['Part 1', '1.000001'], ['Part 2', '1.000001'], ['Part 3', '1.000001']])
    expect(slack.files).toEqual([{ channel: 'C1', threadTs: '1.000001', filename: 'plan.md', content: '# Plan' }])
  })

  it('tries a part again after a passing failure, so the thread has no gap', async () => {
    const { slack, deps } = setup()
    slack.failNext.set('chat.postMessage', 'http_503')

    await postContinuation(deps, 'A1', { channel: 'C1', ts: '1.000001' }, { thread: [part(1), part(2)] })

    expect(slack.messages.map((m) => m.content.text)).toEqual(['Part 1', 'Part 2'])
  })

  it('stops at a part Slack refuses for good and says how many were skipped', async () => {
    const { slack, logger, deps } = setup()
    slack.failNext.set('chat.postMessage', 'is_archived')

    await postContinuation(deps, 'A1', { channel: 'C1', ts: '1.000001' }, { thread: [part(1), part(2)], file })

    expect(slack.messages).toEqual([])
    expect(slack.files).toEqual([])
    expect(logger.lines).toEqual([expect.stringMatching(/^error ask A1: thread part 1 of 2 could not be posted \(Slack error "is_archived"\); 2 later thread posts skipped$/)])
  })

  it('ends between parts once the bridge stops', async () => {
    const { slack, deps } = setup()
    let stopped = false
    const original = slack.postMessage.bind(slack)
    slack.postMessage = async (...args) => {
      stopped = true
      return original(...args)
    }

    await postContinuation(deps, 'A1', { channel: 'C1', ts: '1.000001' }, { thread: [part(1), part(2), part(3)] }, () => stopped)

    expect(slack.messages.map((m) => m.content.text)).toEqual(['Part 1'])
  })
})
