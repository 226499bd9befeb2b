/**
 * Many channels answered at Slack's per-channel pace across three instances
 * (issue 43): agents ask in every channel, one open ask a channel, a
 * channel's next ask no sooner than a second after its last post (Slack's
 * chat.postMessage pace per channel); a person answers each as soon as it
 * is posted. The instances share one PostgreSQL database and one stand-in
 * (which hands the taps to their Socket Mode connections in turn, so most
 * taps land on an instance that did not post the ask). Counted: asks posted
 * and answered per minute; timed: p50/p99 of ask → posted and of tap → card
 * updated. The workspace's posting budget (300 a minute, bursts of 30) and
 * Tier 3 for chat.update (50 a minute) are the stand-in's, as Slack
 * documents them: they, not the instances, bound the figures.
 */
import { performance } from 'node:perf_hooks'
import type { SlackBridge } from '../../src/bridge/types.js'
import { silentLogger } from '../../src/log/logger.js'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { freshDatabase } from '../support/postgres.js'
import { benchQuestion, makeChannels, sleep } from './round-trip.js'
import { ms, percentile } from './stats.js'

export interface ChannelsOptions {
  channels: number
  /** How long agents keep asking. */
  durationMs: number
}

const INSTANCES = 3

export async function benchChannels(options: ChannelsOptions): Promise<string[]> {
  const database = await freshDatabase()
  const slack = await startSandbox()
  const bridges: SlackBridge[] = []
  const stores: PostgresAskStore[] = []
  try {
    const channels = makeChannels(slack, options.channels, 'C0PACE')
    for (let i = 0; i < INSTANCES; i++) {
      const store = await PostgresAskStore.open(database.url, { logger: silentLogger })
      stores.push(store)
      bridges.push(await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: channels[0]!, state: store, logger: silentLogger, owner: 'service' }))
    }
    const updated = new Map<string, number>()
    slack.workspace.on('change', (change) => {
      if (change.type === 'message_updated' && !updated.has(change.message.ts)) updated.set(change.message.ts, performance.now())
    })
    const user = slack.user('U0SANDBOX01')
    const posted: number[] = []
    const clicks: { ts: string; at: number }[] = []
    let answered = 0
    let failed = 0
    let asker = 0
    const start = performance.now()
    const end = start + options.durationMs
    const channelLoop = async (channel: string) => {
      let lastPost = -Infinity
      while (performance.now() < end) {
        await sleep(Math.max(0, lastPost + 1_000 - performance.now()))
        if (performance.now() >= end) return
        const bridge = bridges[asker++ % INSTANCES]!
        try {
          const asked = performance.now()
          const record = await bridge.open({ questions: [benchQuestion] }, { channel })
          lastPost = performance.now()
          posted.push(lastPost - asked)
          const settled = bridge.waitForSettlement(record.id, 120_000)
          clicks.push({ ts: record.message!.ts, at: performance.now() })
          await user.click({ channel, ts: record.message!.ts }, 'npm')
          if ((await settled)?.status === 'answered') answered++
        } catch {
          failed++
        }
      }
    }
    await Promise.all(channels.map((channel) => channelLoop(channel)))
    const minutes = (performance.now() - start) / 60_000
    // Cards still queued behind Tier 3 are waited for a while, then counted as not yet updated.
    await slack.waitFor(() => (clicks.every((click) => updated.has(click.ts)) ? true : undefined), { timeoutMs: 120_000 }).catch(() => undefined)
    const updates = clicks.flatMap((click) => (updated.has(click.ts) ? [updated.get(click.ts)! - click.at] : []))
    return [
      `${options.channels} channels, ${INSTANCES} instances sharing PostgreSQL, one open ask a channel, a channel's next ask ≥ 1 s after its last post, each answered at once; ${(options.durationMs / 1000).toFixed(0)} s of asking`,
      `asks posted per minute: ${(posted.length / minutes).toFixed(0)} (the workspace's budget: 300 a minute after a burst of 30)`,
      `asks answered per minute: ${(answered / minutes).toFixed(0)}; failed: ${failed}`,
      `ask → posted: p50 ${ms(percentile(posted, 50))}, p99 ${ms(percentile(posted, 99))} (n=${posted.length})`,
      `tap → card updated: p50 ${ms(percentile(updates, 50))}, p99 ${ms(percentile(updates, 99))} (n=${updates.length} of ${clicks.length}; chat.update is Tier 3, 50 a minute, learned upwards where Slack allows)`,
    ]
  } finally {
    for (const bridge of bridges) await bridge.stop({ withdrawOpen: false })
    for (const store of stores) await store.close().catch(() => undefined)
    await slack.close()
    await database.drop()
  }
}
