import type { Context } from '@deepseek-ai/cordis'
import { UserQuestionError } from '@deepseek-ai/dsh-user-questions'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SlackBridgeOptions } from '../../src/bridge/types.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import * as pluginModule from '../../src/cordis/index.js'
import { createSlackPlugin } from '../../src/cordis/index.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startService } from '../../src/service/start-service.js'
import { FakeBridge, oneQuestion } from '../http/fake-bridge.js'
import { agentInTurn, approvalOf, harnessContext, load, seamOf, stderrLines } from '../support/cordis-context.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { interactiveElements, visibleText } from '../support/messages.js'

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

/** Waits until the fake bridge has an open ask, then answers it like a person in Slack. */
async function answerWhenAsked(bridge: () => FakeBridge | undefined, selected: string[]) {
  await vi.waitFor(async () => expect((await bridge()?.store.listPending())?.length).toBe(1))
  const [record] = await bridge()!.store.listPending()
  await bridge()!.answer(record!.id, selected)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the dsh-slack cordis 4 plugin', () => {
  it('is a cordis 4 plugin module: a Standard Schema Config, and inject of the seam and the loader', () => {
    expect(pluginModule.name).toBe('dsh-slack')
    expect(pluginModule.inject).toEqual({ userQuestions: null, loader: { await: true } })
    expect(typeof pluginModule.Config['~standard'].validate).toBe('function')
    expect(typeof pluginModule.apply).toBe('function')
  })

  it('registers its provider with ctx.userQuestions, so the seam’s ask() reaches Slack', async () => {
    const ctx = await harnessContext()
    const { plugin, bridges, options } = fakePlugin()
    await load(ctx, plugin, config)

    const asking = seamOf(ctx).ask(oneQuestion)
    await answerWhenAsked(() => bridges[0], ['npm'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
    expect(options[0]).toMatchObject({ botToken: 'xoxb-test', appToken: 'xapp-test', channel: 'C0123ABCDEF', owner: 'library' })
  })

  it('reads a harness request as the harness does: keys it does not know are passed over, not refused', async () => {
    const ctx = await harnessContext()
    const { plugin, bridges } = fakePlugin()
    await load(ctx, plugin, config)
    const question = { ...oneQuestion.questions[0]!, toolCallId: 'call_1' }

    const asking = seamOf(ctx).ask({ questions: [question] })
    await answerWhenAsked(() => bridges[0], ['npm'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
    expect(bridges[0]!.opened[0]?.request.questions[0]).not.toHaveProperty('toolCallId')
  })

  it('rejects with the harness’s own UserQuestionError, so its instanceof checks (plan mode’s “dismissed”) hold', async () => {
    const ctx = await harnessContext()
    const { plugin, bridges } = fakePlugin()
    await load(ctx, plugin, config)

    const asking = seamOf(ctx).ask(oneQuestion)
    await vi.waitFor(async () => expect(await bridges[0]!.store.listPending()).toHaveLength(1))
    await bridges[0]!.dismiss((await bridges[0]!.store.listPending())[0]!.id)

    const error = await asking.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UserQuestionError)
    expect(error).toMatchObject({ name: 'UserQuestionError', code: 'ASK_CANCELLED' })
    expect((error as Error).cause).toMatchObject({ name: 'UserInteractionError', code: 'ASK_CANCELLED' })
  })

  it('lets an ask that arrives while the bridge is still starting wait for it', async () => {
    const ctx = await harnessContext()
    let release!: () => void
    const started = new Promise<void>((resolve) => (release = resolve))
    const bridge = new FakeBridge()
    await load(ctx, createSlackPlugin(async () => async () => (await started, bridge)), config)

    const asking = seamOf(ctx).ask(oneQuestion)
    release()
    await answerWhenAsked(() => bridge, ['npm'])

    expect(await asking).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
  })

  it('unloads through its effect: unregisters, stops the bridge and withdraws open questions (ASK_ABORTED)', async () => {
    const ctx = await harnessContext()
    const { plugin, bridges } = fakePlugin()
    const fiber = await load(ctx, plugin, config)
    const asking = seamOf(ctx).ask(oneQuestion)
    await vi.waitFor(async () => expect(await bridges[0]!.store.listPending()).toHaveLength(1))

    await fiber.dispose()

    await expect(asking).rejects.toMatchObject({ name: 'UserQuestionError', code: 'ASK_ABORTED' })
    expect(bridges[0]!.stopped).toEqual({ withdrawOpen: true })
    await expect(seamOf(ctx).ask(oneQuestion)).rejects.toMatchObject({ code: 'NO_PROVIDER' })
  })

  it('steps aside with one line when the host already has a question UI, and starts no bridge', async () => {
    const ctx = await harnessContext()
    const hostUi = { ask: async () => ({ answers: [] }) }
    ;(ctx as unknown as { userQuestions: { registerProvider(p: unknown): unknown } }).userQuestions.registerProvider(hostUi)
    const lines = stderrLines()
    const { plugin, bridges } = fakePlugin()

    const fiber = await load(ctx, plugin, config)

    expect(fiber.state).toBe(ctx.fiber.state)
    expect(bridges).toHaveLength(0)
    expect(seamOf(ctx).provider).toBe(hostUi)
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: this host shows questions in its own UI .*dsh-slack relay/)])
  })

  it('stays off with one line naming the setting when its config is wrong, and never fails the harness', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()
    const { plugin, bridges } = fakePlugin()

    const fiber = await load(ctx, plugin, { ...config, channel: '#general' })

    expect(fiber.state).toBe(ctx.fiber.state)
    expect(bridges).toHaveLength(0)
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: dsh-slack plugin config channel: /)])
    await expect(seamOf(ctx).ask(oneQuestion)).rejects.toMatchObject({ code: 'NO_PROVIDER' })
  })

  it('names an unknown setting rather than ignoring it', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()

    await load(ctx, fakePlugin().plugin, { ...config, chanel: 'C0123ABCDEF' })

    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: dsh-slack plugin config chanel: is not a dsh-slack plugin setting/)])
  })

  it('takes its settings from the environment when its entry has no config (a bundle install)', async () => {
    const ctx = await harnessContext()
    vi.stubEnv('SLACK_BOT_TOKEN', 'xoxb-from-env')
    vi.stubEnv('SLACK_APP_TOKEN', 'xapp-from-env')
    vi.stubEnv('SLACK_CHANNEL', 'C0ENV000001')
    vi.stubEnv('DSH_SLACK_APPROVALS', '2')
    const { plugin, options } = fakePlugin()

    await load(ctx, plugin)

    await vi.waitFor(() => expect(options).toHaveLength(1))
    expect(options[0]).toMatchObject({ botToken: 'xoxb-from-env', appToken: 'xapp-from-env', channel: 'C0ENV000001', approvals: 2, owner: 'library' })
    vi.unstubAllEnvs()
  })

  it('takes the code-channel setting from its config and from DSH_SLACK_CODE_CHANNELS, and names a wrong value', async () => {
    const fromConfig = fakePlugin()
    await load(await harnessContext(), fromConfig.plugin, { ...config, codeChannels: 'off' })
    vi.stubEnv('SLACK_BOT_TOKEN', 'xoxb-from-env')
    vi.stubEnv('SLACK_APP_TOKEN', 'xapp-from-env')
    vi.stubEnv('DSH_SLACK_CODE_CHANNELS', 'off')
    const fromEnv = fakePlugin()
    await load(await harnessContext(), fromEnv.plugin)
    vi.unstubAllEnvs()

    await vi.waitFor(() => expect([...fromConfig.options, ...fromEnv.options]).toHaveLength(2))
    expect(fromConfig.options[0]).toMatchObject({ codeChannels: 'off' })
    expect(fromEnv.options[0]).toMatchObject({ codeChannels: 'off' })
  })

  it('says which variables to set when its entry has no config and the environment no token', async () => {
    const ctx = await harnessContext()
    vi.stubEnv('SLACK_BOT_TOKEN', '')
    const lines = stderrLines()

    await load(ctx, fakePlugin().plugin)

    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: .*SLACK_BOT_TOKEN.*SLACK_APP_TOKEN/)])
    vi.unstubAllEnvs()
  })

  it('unregisters when the bridge cannot start, so the agent hears NO_PROVIDER rather than waiting on a dead provider', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()

    await load(
      ctx,
      createSlackPlugin(async () => async () => {
        throw new Error('invalid_auth')
      }),
      config,
    )

    await vi.waitFor(() => expect(seamOf(ctx).provider).toBeUndefined())
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: could not start: invalid_auth/)])
  })

  it('refuses a token next to serviceUrl, naming it', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()

    await load(ctx, pluginModule.default, { serviceUrl: 'http://127.0.0.1:3000', botToken: 'xoxb-test' })

    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: dsh-slack plugin config botToken: cannot be combined with serviceUrl/)])
  })
})

const cardIn = (slack: Awaited<ReturnType<typeof startSandbox>>, after?: string) =>
  slack.waitFor(() => {
    const latest = slack.latestMessage(slack.defaultChannel)
    return latest && latest.ts !== after ? latest : undefined
  }, { timeoutMs: 20_000, message: 'a card' })

/** Asks through the seam, taps `npm` on the card as alice, and checks the seam's answer; returns the card. */
async function answeredWithATap(ctx: Context, slack: Sandbox) {
  const answered = seamOf(ctx).ask(oneQuestion)
  const card = await cardIn(slack)
  await slack.user('U0SANDBOX01').click(card, 'npm')
  expect(await answered).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
  return card
}

describe('the plugin with the real bridge on the local stand-in', () => {
  let slack: Sandbox
  beforeEach(async () => {
    slack = await startSandbox()
  })
  afterEach(async () => {
    await slack.close()
  })

  const onStandIn = () => ({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:' })

  it('answers the seam’s ask() from a tap in Slack, and withdraws an open question when unloaded', async () => {
    const ctx = await harnessContext()
    const fiber = await load(ctx, pluginModule.default, onStandIn())

    const first = await answeredWithATap(ctx, slack)

    const open = seamOf(ctx).ask(oneQuestion)
    open.catch(() => undefined)
    const second = await cardIn(slack, first.ts)
    await fiber.dispose()

    await expect(open).rejects.toMatchObject({ name: 'UserQuestionError', code: 'ASK_ABORTED' })
    expect(interactiveElements(slack.messages(slack.defaultChannel).find((m) => m.ts === second.ts)!)).toEqual([])
  }, 60_000)

  it('answers the harness’s tool approvals in Slack: the card shows the call’s command, and Allow is allowed-once', async () => {
    const ctx = await harnessContext('questions+approvals')
    await load(ctx, pluginModule.default, onStandIn())
    const call = { type: 'assistant/message', data: { message: { content: [{ type: 'tool-call', id: 'call-7', name: 'bash', arguments: { command: 'rm -rf build/', description: 'clean' } }] } } }
    const approval = approvalOf(ctx)

    const decided = approval.request({ agent: agentInTurn([call]) as never, toolName: 'bash', callId: 'call-7' as never, reason: 'needs write access outside the workspace' })
    const card = await cardIn(slack)
    expect(visibleText(card)).toContain('rm -rf build/')
    expect(visibleText(card)).toContain('needs write access outside the workspace')
    await slack.user('U0SANDBOX01').click(card, /Allow/)

    expect(await decided).toBe('allowed-once')
  }, 60_000)

  it('withdraws an approval card when the harness withdraws the request (turn cancelled): cancelled', async () => {
    const ctx = await harnessContext('questions+approvals')
    await load(ctx, pluginModule.default, onStandIn())
    const approval = approvalOf(ctx)
    const turn = new AbortController()

    const decided = approval.request({ agent: agentInTurn() as never, toolName: 'bash', reason: 'network access', signal: turn.signal })
    const card = await cardIn(slack)
    turn.abort()

    expect(await decided).toBe('cancelled')
    await slack.waitFor(() => interactiveElements(slack.messages(slack.defaultChannel).find((m) => m.ts === card.ts)!).length === 0, { timeoutMs: 10_000, message: 'the card withdrawn' })
  }, 60_000)
})

describe('the plugin as a thin client of a running service (serviceUrl)', () => {
  it('answers the seam’s ask() through the service with no Slack token, and withdraws an open question when unloaded', async () => {
    const slack = await startSandbox()
    const apiKey = 'p'.repeat(32)
    const env = { ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', DSH_SLACK_API_KEY: apiKey, PORT: '0' }
    const service = await startService(configFromEnv(env), await serviceDeps(), silentLogger)
    try {
      const ctx = await harnessContext()
      const fiber = await load(ctx, pluginModule.default, { serviceUrl: service.url, apiKey })

      await answeredWithATap(ctx, slack)

      const open = seamOf(ctx).ask(oneQuestion)
      open.catch(() => undefined)
      await vi.waitFor(async () => expect(await service.bridge.store.listPending()).toHaveLength(1))
      await fiber.dispose()

      await expect(open).rejects.toMatchObject({ name: 'UserQuestionError', code: 'ASK_ABORTED' })
      expect(await service.bridge.store.listPending()).toEqual([])
    } finally {
      await service.stop()
      await slack.close()
    }
  }, 60_000)
})
