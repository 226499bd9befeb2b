import type { SlackBridge } from '../../src/bridge/types.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { RATE_RULES } from '../../src/slack/rate-rules.js'
import { ms, percentile } from './stats.js'

/**
 * Card updates under load (issue 21, decision 0045): a team answers many
 * asks in one workspace within a minute, and each card should lose its
 * buttons soon after the click. Clicks are spread evenly over the minute;
 * the figure is the time from each click to its card's update at the
 * stand-in. The pacer as it was (`documented`: Tier 3's documented 50 a
 * minute, never more) and as it is (`learned`), each against a Slack that
 * takes the documented 50 and one that takes more ("50+").
 */

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

type Budget = 'documented' | 'learned'

interface Run {
  budget: Budget
  slackPerMinute: number
  latencies: number[]
  /** chat.update calls beyond one per card: 429s met and retried. */
  rateLimited: number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** One bridge on its own stand-in: `asks` asks, their clicks spread over `spreadMs`. */
async function run(budget: Budget, slackPerMinute: number, asks: number, spreadMs: number): Promise<Run> {
  const slack = await startSandbox({ tier3PerMinute: slackPerMinute })
  let bridge: SlackBridge | undefined
  try {
    bridge = await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger, updateBudget: budget })
    const updatedAt = new Map<string, number>()
    slack.workspace.on('change', (change) => {
      if (change.type === 'message_updated' && !updatedAt.has(change.message.ts)) updatedAt.set(change.message.ts, performance.now())
    })
    // One channel per ask, so Slack's one post a second per channel stays out of the figure;
    // the posts go out (at the workspace budget) ahead of the clicks, which are slower.
    const channels = Array.from({ length: asks }, (_, i) => slack.createChannel({ id: `C0CARD${String(i).padStart(4, '0')}`, name: `cards-${i}`, botIsMember: true }).id)
    const opened = channels.map((channel) => bridge!.open({ questions: [question] }, { channel }))
    const user = slack.user('U0SANDBOX01')
    const start = performance.now()
    const clickedAt = new Map<string, number>()
    await Promise.all(
      opened.map(async (open, i) => {
        const record = await open
        const due = start + (i * spreadMs) / asks
        if (due > performance.now()) await sleep(due - performance.now())
        clickedAt.set(record.message!.ts, performance.now())
        await user.click(record.message!, 'npm')
      }),
    )
    const updates = [...clickedAt.keys()]
    await slack.waitFor(() => updates.every((ts) => updatedAt.has(ts)) || undefined, { timeoutMs: 10 * 60_000 })
    const latencies = updates.map((ts) => updatedAt.get(ts)! - clickedAt.get(ts)!)
    return { budget, slackPerMinute, latencies, rateLimited: slack.callCount('chat.update') - asks }
  } finally {
    await bridge?.stop({ withdrawOpen: false })
    await slack.close()
  }
}

const ratio = (after: number, before: number) => `${after / before < 0.1 ? (after / before).toPrecision(2) : (after / before).toFixed(2)}×`
const seconds = (value: number) => (value < 1000 ? ms(value) : `${(value / 1000).toFixed(1)} s`)

export async function benchCardUpdates(options: { asks: number; spreadMs: number; morePerMinute: number }): Promise<string[]> {
  const documented = RATE_RULES.tier3.perSecond * 60
  // Side by side, each with its own stand-in and bridge: the figures are seconds of queueing, far above what sharing the machine adds.
  const runs = await Promise.all(
    (['documented', 'learned'] as const).flatMap((budget) => [documented, options.morePerMinute].map((slackPerMinute) => run(budget, slackPerMinute, options.asks, options.spreadMs))),
  )
  const lines = [`${options.asks} asks in one workspace, clicks spread over ${seconds(options.spreadMs)}; click → card updated at the stand-in:`]
  for (const slackPerMinute of [documented, options.morePerMinute]) {
    const before = runs.find((r) => r.budget === 'documented' && r.slackPerMinute === slackPerMinute)!
    const after = runs.find((r) => r.budget === 'learned' && r.slackPerMinute === slackPerMinute)!
    const figure = (r: Run) => `p50 ${seconds(percentile(r.latencies, 50))}, max ${seconds(Math.max(...r.latencies))} (${r.rateLimited} 429s met)`
    lines.push(
      `  Slack takes ${slackPerMinute} a minute: before (documented ${documented}) ${figure(before)}; after (learned) ${figure(after)}; after ÷ before: p50 ${ratio(percentile(after.latencies, 50), percentile(before.latencies, 50))}, max ${ratio(Math.max(...after.latencies), Math.max(...before.latencies))}`,
    )
  }
  return lines
}
