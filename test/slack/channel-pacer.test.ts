import { describe, expect, it } from 'vitest'
import { RateLimiter } from '../../src/sandbox/rate-limit.js'
import { ChannelPacer, type PacerOptions } from '../../src/slack/channel-pacer.js'
import { perMinute, postScheduleMs, RATE_RULES } from '../../src/slack/rate-rules.js'
import { SlackCallError } from '../../src/slack/slack-call-error.js'
import { TIMING } from '../../src/slack/timing.js'
import type { LedgerBucket, LedgerTurn, RateLedger } from '../../src/store/rate-ledger.js'

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

  it('keeps chat.update within its tier and sends nothing while a 429 is waited out', async () => {
    const clock = virtualClock()
    const pacer = new ChannelPacer({ rules: rules({ update: { perSecond: 1, burst: 2 } }), ...clock })
    const sent: number[] = []

    await clock.settle(
      Promise.all(
        [0, 1, 2].map(() =>
          pacer.update(async () => {
            sent.push(clock.now())
            if (sent.length === 1) throw new SlackCallError('chat.update', 'ratelimited', '', { retryAfterSeconds: 5 })
          }),
        ),
      ),
    )

    // The second call was still waiting for its turn when the 429 came back: it waits the pause out too.
    expect(sent).toEqual([0, 5000, 6000, 7000])
  })

  describe('chat.update beyond the documented Tier 3 (decision 0045)', () => {
    /** Slack as the stand-in models it: chat.update taken from a bucket of `real` calls a minute, a burst of as many. */
    function slackTaking(real: number, clock: { now: () => number }) {
      const limiter = new RateLimiter(clock)
      const taken: number[] = []
      const refused: { at: number; retryAfter: number }[] = []
      const call = async () => {
        const retryAfter = limiter.take('chat.update', perMinute(real))
        if (retryAfter > 0) {
          refused.push({ at: clock.now(), retryAfter })
          throw new SlackCallError('chat.update', 'ratelimited', '', { retryAfterSeconds: retryAfter })
        }
        taken.push(clock.now())
      }
      /** Calls that reached Slack while it had said 429 and its Retry-After had not run out. */
      const sentDuringPause = () => [...taken, ...refused.map((r) => r.at)].filter((at) => refused.some((r) => at > r.at && at < r.at + r.retryAfter * 1000)).length
      return { call, taken, refused, sentDuringPause }
    }

    it('sends more than the documented 50 a minute when Slack takes more, and settles near what Slack allows', async () => {
      const clock = virtualClock()
      const pacer = new ChannelPacer({ ...clock })
      const slack = slackTaking(120, clock)

      await clock.settle(Promise.all(Array.from({ length: 600 }, () => pacer.update(slack.call))))

      expect(slack.taken).toHaveLength(600)
      // At the documented 50 a minute the last would go out after 11 minutes; Slack's 120 allow it after 4.
      expect(slack.taken.at(-1)!).toBeLessThan(5 * 60_000)
      expect(pacer.updatesPerMinute).toBeGreaterThan(100)
      expect(pacer.updatesPerMinute).toBeLessThan(150)
      expect(slack.refused.length).toBeLessThan(15)
      expect(slack.sentDuringPause()).toBe(0)
    })

    it('costs little against a Slack that allows only the documented figure, and loses no call', async () => {
      const clock = virtualClock()
      const pacer = new ChannelPacer({ ...clock })
      const slack = slackTaking(50, clock)

      await clock.settle(Promise.all(Array.from({ length: 200 }, () => pacer.update(slack.call))))

      expect(slack.taken).toHaveLength(200)
      // The documented pace: a burst of 50, then 150 more at 50 a minute (180 s); probing may cost a few seconds.
      expect(slack.taken.at(-1)!).toBeLessThan(1.1 * 180_000)
      expect(slack.sentDuringPause()).toBe(0)
    })

    it('never goes beyond the documented figure when pinned to it', async () => {
      const clock = virtualClock()
      const pacer = new ChannelPacer({ ...clock, updateBudget: 'documented' })
      const slack = slackTaking(50, clock)

      await clock.settle(Promise.all(Array.from({ length: 100 }, () => pacer.update(slack.call))))

      expect(slack.taken).toHaveLength(100)
      expect(slack.refused).toEqual([])
      expect(pacer.updatesPerMinute).toBe(50)
    })

    it('sends the first update of a settled ask before refreshes already waiting for the budget', async () => {
      const clock = virtualClock()
      const pacer = new ChannelPacer({ rules: rules({ update: { perSecond: 1, burst: 1 } }), ...clock, updateBudget: 'documented' })
      const sent: string[] = []
      const update = (name: string) => async () => void sent.push(name)

      const refreshes = [1, 2, 3].map((n) => pacer.update(update(`refresh ${n}`), 'refresh'))
      const settlement = pacer.update(update('settlement'), 'settle')
      await clock.settle(Promise.all([...refreshes, settlement]))

      expect(sent).toEqual(['refresh 1', 'settlement', 'refresh 2', 'refresh 3'])
    })

    it('leaves a refresh unsent when a newer render replaces it while it waits', async () => {
      const clock = virtualClock()
      const pacer = new ChannelPacer({ rules: rules({ update: { perSecond: 1, burst: 1 } }), ...clock })
      const sent: string[] = []
      const replaced = new AbortController()

      const first = pacer.update(async () => void sent.push('first'), 'refresh')
      const stale = pacer.update(async () => void sent.push('stale'), 'refresh', replaced.signal)
      replaced.abort()
      const newer = pacer.update(async () => void sent.push('newer'), 'refresh')

      await expect(stale).rejects.toThrow()
      await clock.settle(Promise.all([first, newer]))
      expect(sent).toEqual(['first', 'newer'])
    })

    it('keeps at most a few chat.updates awaiting Slack at once, so a budget that proves too big meets few 429s', async () => {
      const clock = virtualClock()
      const pacer = new ChannelPacer({ ...clock })
      let inFlight = 0
      let most = 0

      await clock.settle(
        Promise.all(
          Array.from({ length: 50 }, () =>
            pacer.update(async () => {
              most = Math.max(most, ++inFlight)
              await clock.sleep(100)
              inFlight--
            }),
          ),
        ),
      )

      expect(most).toBe(TIMING.tierCallsInFlight)
    })

    it('shares what one instance learned from a 429 with the others through the ledger, with their next turn', async () => {
      const clock = virtualClock()
      const ledger = fakeLedger(clock)
      const a = new ChannelPacer({ ...clock, ledger })
      const b = new ChannelPacer({ ...clock, ledger })
      const slack = slackTaking(120, clock)
      await clock.settle(Promise.all(Array.from({ length: 400 }, () => a.update(slack.call))))
      expect(slack.refused.length).toBeGreaterThan(0)

      await clock.settle(b.update(slack.call))

      // B paces to what A learned at its last 429 (A has probed a little beyond it since), not the documented 50.
      expect(b.updatesPerMinute).toBeGreaterThan(100)
      expect(b.updatesPerMinute).toBeLessThanOrEqual(a.updatesPerMinute)
    })
  })
})

/** The shared ledger's GCRA in memory (as postgres-rate-ledger.ts keeps it), on the test's clock. */
function fakeLedger(clock: { now: () => number }): RateLedger {
  const rows = new Map<string, { tat: number; perMinute?: number }>()
  return {
    async reserve(buckets: readonly LedgerBucket[]): Promise<LedgerTurn> {
      const turn: LedgerTurn = { waitMs: 0 }
      for (const bucket of buckets) {
        const row = rows.get(bucket.key) ?? { tat: -Infinity }
        row.tat = Math.max(row.tat, clock.now()) + bucket.costMs
        rows.set(bucket.key, row)
        turn.waitMs = Math.max(turn.waitMs, row.tat - bucket.costMs - bucket.burstMs - clock.now())
        if (row.perMinute !== undefined) turn.learnedPerMinute = row.perMinute
      }
      return turn
    },
    async pause(buckets: readonly LedgerBucket[], forMs: number, learnedPerMinute?: number): Promise<void> {
      for (const bucket of buckets) {
        const row = rows.get(bucket.key) ?? { tat: -Infinity }
        row.tat = Math.max(row.tat, clock.now() + forMs + bucket.burstMs)
        if (learnedPerMinute !== undefined) row.perMinute = learnedPerMinute
        rows.set(bucket.key, row)
      }
    },
  }
}
