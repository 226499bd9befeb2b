import { Context } from 'cordis'
import { describe, expect, it, vi } from 'vitest'
import type { SlackBridgeOptions } from '../../src/bridge/types.js'
import * as pluginModule from '../../src/cordis/index.js'
import { createSlackPlugin } from '../../src/cordis/index.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { startService } from '../../src/service/start-service.js'
import { postScheduleMs } from '../../src/slack/rate-rules.js'
import { FakeBridge, oneQuestion } from '../http/fake-bridge.js'
import { SeamService, UserInteractionService, UserQuestionsService } from './seam-service.js'

declare module 'cordis' {
  interface Context {
    userInteraction: SeamService
    userQuestions: SeamService
  }
}

const config = { botToken: 'xoxb-test', appToken: 'xapp-test', channel: 'C0123ABCDEF', state: ':memory:' }

/** A plugin whose bridges are fakes, and the record of what it started. */
function fakePlugin() {
  const bridges: FakeBridge[] = []
  const options: SlackBridgeOptions[] = []
  const plugin = createSlackPlugin(async () => async (given) => {
    options.push(given)
    const bridge = new FakeBridge()
    bridges.push(bridge)
    return bridge
  })
  return { plugin, bridges, options }
}

async function harness(seams: ('userInteraction' | 'userQuestions')[] = ['userInteraction']) {
  const ctx = new Context()
  const errors: unknown[] = []
  ctx.on('internal/error', (error: unknown) => void errors.push(error))
  for (const seam of seams) ctx.plugin(seam === 'userInteraction' ? UserInteractionService : UserQuestionsService)
  await ctx.events.flush()
  return { ctx, errors }
}

/** Waits until the fake bridge has an open ask, then answers it like a person in Slack. */
async function answerWhenAsked(bridge: () => FakeBridge | undefined, selected: string[]) {
  await vi.waitFor(async () => expect((await bridge()?.store.listPending())?.length).toBe(1))
  const [record] = await bridge()!.store.listPending()
  await bridge()!.answer(record!.id, selected)
}

describe('the dsh-slack cordis plugin', () => {
  it('exports name, inject, Config and apply as a cordis plugin module', () => {
    expect(pluginModule.name).toBe('dsh-slack')
    expect(pluginModule.inject).toEqual({ userInteraction: { required: false }, userQuestions: { required: false } })
    expect(typeof pluginModule.Config).toBe('function')
    expect(typeof pluginModule.apply).toBe('function')
  })

  it('registers its provider with ctx.userInteraction, so the seam’s ask() reaches Slack', async () => {
    const { ctx } = await harness()
    const { plugin, bridges, options } = fakePlugin()
    ctx.plugin(plugin, config)
    await ctx.events.flush()

    const asking = ctx.userInteraction.ask(oneQuestion)
    await answerWhenAsked(() => bridges[0], ['npm'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
    expect(options[0]).toMatchObject({ botToken: 'xoxb-test', appToken: 'xapp-test', channel: 'C0123ABCDEF', owner: 'library' })
  })

  it('reads a harness request as the harness does: keys it does not know are passed over, not refused', async () => {
    const { ctx } = await harness()
    const { plugin, bridges } = fakePlugin()
    ctx.plugin(plugin, config)
    await ctx.events.flush()
    const question = { ...oneQuestion.questions[0]!, toolCallId: 'call_1' }

    const asking = ctx.userInteraction.ask({ questions: [question] } as typeof oneQuestion)
    await answerWhenAsked(() => bridges[0], ['npm'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
    expect(bridges[0]!.opened[0]?.request.questions[0]).not.toHaveProperty('toolCallId')
  })

  it('registers with ctx.userQuestions in newer harnesses', async () => {
    const { ctx } = await harness(['userQuestions'])
    const { plugin, bridges } = fakePlugin()
    ctx.plugin(plugin, config)
    await ctx.events.flush()

    const asking = ctx.userQuestions.ask(oneQuestion)
    await answerWhenAsked(() => bridges[0], ['pnpm (Recommended)'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['pnpm (Recommended)'] }] })
  })

  it('serves both seams when a harness has both', async () => {
    const { ctx } = await harness(['userInteraction', 'userQuestions'])
    const { plugin } = fakePlugin()
    ctx.plugin(plugin, config)
    await ctx.events.flush()

    expect(ctx.userInteraction.provider).toBeDefined()
    expect(ctx.userQuestions.provider).toBeDefined()
  })

  it('lets an ask that arrives while the bridge is still starting wait for it', async () => {
    const { ctx } = await harness()
    let release!: () => void
    const started = new Promise<void>((resolve) => (release = resolve))
    const bridge = new FakeBridge()
    ctx.plugin(createSlackPlugin(async () => async () => (await started, bridge)), config)

    const asking = ctx.userInteraction.ask(oneQuestion)
    release()
    await answerWhenAsked(() => bridge, ['npm'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
  })

  it('unregisters and stops the bridge on dispose, withdrawing open questions', async () => {
    const { ctx } = await harness()
    const { plugin, bridges } = fakePlugin()
    const fork = ctx.plugin(plugin, config)
    await ctx.events.flush()
    const asking = ctx.userInteraction.ask(oneQuestion)
    await vi.waitFor(async () => expect(await bridges[0]!.store.listPending()).toHaveLength(1))

    fork.dispose()

    await expect(asking).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
    expect(bridges[0]!.stopped).toEqual({ withdrawOpen: true })
    await expect(ctx.userInteraction.ask(oneQuestion)).rejects.toMatchObject({ code: 'NO_PROVIDER' })
  })

  it('fails a second registration with DUPLICATE_PROVIDER and never starts its bridge', async () => {
    const { ctx, errors } = await harness()
    const first = fakePlugin()
    const second = fakePlugin()
    ctx.plugin(first.plugin, config)
    await ctx.events.flush()

    ctx.plugin(second.plugin, config)
    await ctx.events.flush()

    expect(errors).toEqual([expect.objectContaining({ name: 'UserInteractionError', code: 'DUPLICATE_PROVIDER' })])
    expect(second.bridges).toHaveLength(0)
    expect(ctx.userInteraction.provider).toBeDefined()
  })

  it('lets a new instance register once the first is disposed', async () => {
    const { ctx, errors } = await harness()
    const first = fakePlugin()
    const second = fakePlugin()
    ctx.plugin(first.plugin, config).dispose()
    await ctx.events.flush()

    ctx.plugin(second.plugin, config)
    await ctx.events.flush()

    expect(errors).toEqual([])
    expect(second.bridges).toHaveLength(1)
  })

  it('refuses a malformed config with one line naming the key, and starts nothing', async () => {
    const { ctx, errors } = await harness()
    const { plugin, bridges } = fakePlugin()

    ctx.plugin(plugin, { ...config, channel: '#general' })
    await ctx.events.flush()

    expect(errors).toEqual([expect.objectContaining({ name: 'ConfigError', message: expect.stringMatching(/^dsh-slack plugin config channel: /) })])
    expect(bridges).toHaveLength(0)
  })

  it('stops itself when the bridge cannot start, so the seam has no dead provider', async () => {
    const { ctx } = await harness()
    ctx.plugin(
      createSlackPlugin(async () => async () => {
        throw new Error('invalid_auth')
      }),
      config,
    )
    await ctx.events.flush()

    await vi.waitFor(() => expect(ctx.userInteraction.provider).toBeUndefined())
  })
})

/**
 * How long the n-th question to one channel may take to show once the
 * bridge is up: what Slack's pacing allows (the bridge paces to it: within
 * the burst, nothing) plus an allowance for a busy machine that has nothing
 * to do with pacing. The first also waits for the plugin to start its bridge.
 */
const shownWithinMs = (nth: number) => postScheduleMs(nth) + (nth === 1 ? 30_000 : 10_000)

describe('the dsh-slack cordis plugin with the real bridge on the local stand-in', () => {
  it('answers the seam’s ask() from a tap in Slack, and withdraws an open question on dispose', async () => {
    const slack = await startSandbox()
    try {
      const { ctx } = await harness()
      const fork = ctx.plugin(pluginModule.default, {
        botToken: slack.botToken,
        appToken: slack.appToken,
        slackApiUrl: slack.apiUrl,
        channel: slack.defaultChannel,
        state: ':memory:',
      })
      await ctx.events.flush()

      const answered = ctx.userInteraction.ask(oneQuestion)
      const first = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: shownWithinMs(1), message: 'the first question' })
      await slack.user('U0SANDBOX01').click(first, 'npm')
      expect(await answered).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })

      const open = ctx.userInteraction.ask(oneQuestion)
      const second = await slack.waitFor(() => {
        const latest = slack.latestMessage(slack.defaultChannel)
        return latest && latest.ts !== first.ts ? latest : undefined
      }, { timeoutMs: shownWithinMs(2), message: 'the second question' })
      fork.dispose()

      await expect(open).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
      await slack.waitFor(() => {
        const message = slack.messages(slack.defaultChannel).find((m) => m.ts === second.ts)
        return message && !JSON.stringify(message.blocks).includes('"type":"button"')
      })
      await expect(ctx.userInteraction.ask(oneQuestion)).rejects.toMatchObject({ code: 'NO_PROVIDER' })
    } finally {
      await slack.close()
    }
  }, shownWithinMs(1) + shownWithinMs(2) + 20_000)
})

describe('the dsh-slack cordis plugin as a thin client of a running service (serviceUrl)', () => {
  it('answers the seam’s ask() through the service with no Slack token, and withdraws an open question on dispose', async () => {
    const slack = await startSandbox()
    const apiKey = 'p'.repeat(32)
    const env = { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel, DSH_SLACK_STATE: ':memory:', DSH_SLACK_API_KEY: apiKey, PORT: '0' }
    const service = await startService(configFromEnv(env), await serviceDeps(), silentLogger)
    try {
      const { ctx } = await harness()
      const fork = ctx.plugin(pluginModule.default, { serviceUrl: service.url, apiKey })
      await ctx.events.flush()

      const answered = ctx.userInteraction.ask(oneQuestion)
      // Through the service's HTTP API and its pacer: allow for a busy machine.
      const first = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 20_000 })
      await slack.user('U0SANDBOX01').click(first, 'npm')
      expect(await answered).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })

      const open = ctx.userInteraction.ask(oneQuestion)
      await vi.waitFor(async () => expect(await service.bridge.store.listPending()).toHaveLength(1))
      fork.dispose()

      await expect(open).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
      expect(await service.bridge.store.listPending()).toEqual([])
      await expect(ctx.userInteraction.ask(oneQuestion)).rejects.toMatchObject({ code: 'NO_PROVIDER' })
    } finally {
      await service.stop()
      await slack.close()
    }
  })

  it('refuses a token next to serviceUrl with one line naming it', async () => {
    const { ctx, errors } = await harness()

    ctx.plugin(pluginModule.default, { serviceUrl: 'http://127.0.0.1:3000', botToken: 'xoxb-test' })
    await ctx.events.flush()

    expect(errors).toEqual([expect.objectContaining({ name: 'ConfigError', message: expect.stringMatching(/^dsh-slack plugin config botToken: cannot be combined with serviceUrl/) })])
  })

  it('refuses a config with neither botToken nor serviceUrl, saying both ways', async () => {
    const { ctx, errors } = await harness()

    ctx.plugin(pluginModule.default, { channel: 'C0123ABCDEF' })
    await ctx.events.flush()

    expect(errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^dsh-slack plugin config botToken: .*serviceUrl/) })])
  })
})
