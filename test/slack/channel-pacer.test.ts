import { describe, expect, it } from 'vitest'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import { SlackCallError } from '../../src/slack/slack-call-error.js'

/** A clock that only moves when the pacer sleeps: no real waiting, exact gaps. */
function virtualClock() {
  let now = 0
  const sleeps: number[] = []
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      now += ms
    },
    sleeps,
  }
}

describe('ChannelPacer', () => {
  it('posts to one channel in the order asked, one interval apart', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ intervalMs: 1000, ...clock })
    const posted: [number, number][] = []

    await Promise.all(Array.from({ length: 5 }, (_, i) => pacer.run('C1', async () => posted.push([i, clock.now()]))))

    expect(posted).toEqual([[0, 0], [1, 1000], [2, 2000], [3, 3000], [4, 4000]])
  })

  it('does not make one channel wait for another', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ intervalMs: 1000, ...clock })

    await Promise.all([pacer.run('C1', async () => undefined), pacer.run('C2', async () => undefined)])

    expect(clock.sleeps).toEqual([])
  })

  it('waits out Slack\'s Retry-After on a 429 and then delivers', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ intervalMs: 0, ...clock })
    let attempts = 0

    const result = await pacer.run('C1', async () => {
      attempts++
      if (attempts === 1) throw new SlackCallError('chat.postMessage', 'ratelimited', '', { retryAfterSeconds: 2 })
      return 'ok'
    })

    expect(result).toBe('ok')
    expect(clock.sleeps).toContain(2000)
  })

  it('gives up on a Retry-After longer than a caller should wait', async () => {
    const pacer = new ChannelPacer({ intervalMs: 0, ...virtualClock() })

    const post = pacer.run('C1', async () => {
      throw new SlackCallError('chat.postMessage', 'ratelimited', '', { retryAfterSeconds: 3600 })
    })

    await expect(post).rejects.toMatchObject({ slackError: 'ratelimited' })
  })

  it('keeps going after a failed post and forgets idle channels', async () => {
    const pacer = new ChannelPacer({ intervalMs: 0, ...virtualClock() })

    const failed = pacer.run('C1', async () => {
      throw new SlackCallError('chat.postMessage', 'channel_not_found', '')
    })
    const next = pacer.run('C1', async () => 'delivered')

    await expect(failed).rejects.toMatchObject({ slackError: 'channel_not_found' })
    await expect(next).resolves.toBe('delivered')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(pacer.busyChannels).toBe(0)
  })
})
