import { describe, expect, it } from 'vitest'
import { ChannelPacer, type PacerOptions } from '../../src/slack/channel-pacer.js'
import { postScheduleMs, RATE_RULES } from '../../src/slack/rate-rules.js'
import { SlackCallError } from '../../src/slack/slack-call-error.js'

/**
 * Virtual time: sleeps wait until `settle()` moves the clock to the earliest
 * wake-up, once everything else has run. No real waiting, exact times.
 */
function virtualClock() {
  let now = 0
  const sleepers: { at: number; wake: () => void }[] = []
  const idle = () => new Promise((resolve) => setImmediate(resolve))
  return {
    now: () => now,
    advance: (ms: number) => (now += ms),
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
    /** Runs until `done` settles, moving the clock from one wake-up to the next. */
    async settle<T>(done: Promise<T>): Promise<T> {
      let finished = false
      void done.then(() => (finished = true), () => (finished = true))
      for (;;) {
        await idle()
        if (finished) return done
        sleepers.sort((a, b) => a.at - b.at)
        const next = sleepers.shift()
        if (!next) return done
        now = Math.max(now, next.at)
        next.wake()
      }
    },
  }
}

const rules = (overrides: PacerOptions['rules'] = {}): PacerOptions['rules'] => ({
  channelPost: { perSecond: 1, burst: 4 },
  workspacePost: { perSecond: 100, burst: 100 },
  update: { perSecond: 100, burst: 100 },
  ...overrides,
})

const ratelimited = (seconds: number) => new SlackCallError('chat.postMessage', 'ratelimited', '', { retryAfterSeconds: seconds })

describe('ChannelPacer', () => {
  it('lets a burst through at once, then posts about one a second, in the order asked', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules(), ...clock })
    const posted: [number, number][] = []

    await clock.settle(Promise.all(Array.from({ length: 7 }, (_, i) => pacer.run('C1', async () => posted.push([i, clock.now()])))))

    expect(posted).toEqual([[0, 0], [1, 0], [2, 0], [3, 0], [4, 1000], [5, 2000], [6, 3000]])
    expect(posted.at(-1)![1]).toBe(postScheduleMs(7, { perSecond: 1, burst: 4 }))
  })

  it('posts a second question to the same channel at once: Slack allows short bursts', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ ...clock })

    const times = await clock.settle(Promise.all([pacer.run('C1', async () => clock.now()), pacer.run('C1', async () => clock.now())]))

    expect(times).toEqual([0, 0])
    expect(RATE_RULES.channelPost.burst).toBeGreaterThanOrEqual(2)
  })

  it('counts a post from when Slack answered it, so a slow answer never makes the next one early', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules({ channelPost: { perSecond: 1, burst: 1 } }), ...clock })

    const times = await clock.settle(
      Promise.all([
        pacer.run('C1', async () => {
          clock.advance(300)
          return clock.now()
        }),
        pacer.run('C1', async () => clock.now()),
      ]),
    )

    expect(times).toEqual([300, 1300])
  })

  it('sends a new question before thread parts already waiting in its channel', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules({ channelPost: { perSecond: 1, burst: 1 } }), ...clock })
    const order: string[] = []

    const parts = [1, 2, 3].map((n) => pacer.run('C1', async () => order.push(`part ${n}`), 'thread'))
    const question = pacer.run('C1', async () => order.push('question'))
    await clock.settle(Promise.all([...parts, question]))

    expect(order).toEqual(['part 1', 'question', 'part 2', 'part 3'])
  })

  it('keeps the workspace-wide budget across channels', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules({ workspacePost: { perSecond: 2, burst: 2 } }), ...clock })

    const times = await clock.settle(Promise.all(['C1', 'C2', 'C3', 'C4'].map((channel) => pacer.run(channel, async () => clock.now()))))

    expect(times.sort((a, b) => a - b)).toEqual([0, 0, 500, 1000])
  })

  it('pauses only the rate-limited channel for Slack’s Retry-After, then delivers in order', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules(), ...clock })
    const posted: string[] = []
    let first = true

    const c1 = [1, 2].map((n) =>
      pacer.run('C1', async () => {
        if (n === 1 && first) {
          first = false
          throw ratelimited(2)
        }
        posted.push(`C1 #${n} at ${clock.now()}`)
      }),
    )
    const c2 = pacer.run('C2', async () => posted.push(`C2 at ${clock.now()}`))
    await clock.settle(Promise.all([...c1, c2]))

    expect(posted).toEqual(['C2 at 0', 'C1 #1 at 2000', 'C1 #2 at 3000'])
  })

  it('gives up on a Retry-After longer than a caller should wait', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ intervalMs: 0, ...clock })

    const post = pacer.run('C1', async () => {
      throw ratelimited(3600)
    })

    await expect(clock.settle(post)).rejects.toMatchObject({ slackError: 'ratelimited' })
  })

  it('keeps going after a failed post and forgets idle channels', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ intervalMs: 0, ...clock })

    const failed = pacer.run('C1', async () => {
      throw new SlackCallError('chat.postMessage', 'channel_not_found', '')
    })
    const next = pacer.run('C1', async () => 'delivered')

    await expect(clock.settle(failed)).rejects.toMatchObject({ slackError: 'channel_not_found' })
    await expect(clock.settle(next)).resolves.toBe('delivered')
    await new Promise((resolve) => setImmediate(resolve))
    expect(pacer.busyChannels).toBe(0)
  })

  it('keeps chat.update within its tier and waits out a 429 on it', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules({ update: { perSecond: 1, burst: 2 } }), ...clock })
    let calls = 0

    const times = await clock.settle(
      Promise.all(
        [0, 1, 2].map(() =>
          pacer.update(async () => {
            calls++
            if (calls === 1) throw new SlackCallError('chat.update', 'ratelimited', '', { retryAfterSeconds: 5 })
            return clock.now()
          }),
        ),
      ),
    )

    expect(times.sort((a, b) => a - b)).toEqual([0, 5000, 6000])
  })
})
