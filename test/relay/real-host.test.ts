import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { StoredMessage } from '../../src/sandbox/model.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES, type SandboxOptions } from '../../src/sandbox/options.js'
import { runRelayCommand } from '../../src/relay/command.js'
import { startRelay, type Relay } from '../../src/relay/index.js'
import { eventually, startRig } from '../support/e2e.js'
import { startDshWeb, type DshWeb } from '../support/harness/dsh-web.js'
import { findRealHarness, freshDshHome, HARNESS_BUILD_TIMEOUT_MS, removeQuietly, type RealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ModelRequest, type ScriptedModel } from '../support/harness/scripted-model.js'
import { interactiveElements, postedMessage, visibleText } from '../support/messages.js'
import { FAST } from './support/fixtures.js'
import { recordingLogger } from './support/recording-logger.js'
import { codeChannelOfSession } from '../support/code-channels.js'

// The relay against the real harness web host (`dsh web`, built from its
// public repository by ../shared/harness/build.sh), driven as its users do:
// a scripted model asks through the harness's own tools, the host relays,
// dsh-slack posts to the local Slack stand-in, and a person clicks there.
// What the model receives in its next request is the proof that an answer
// arrived. One host per describe: a boot costs seconds.

const ALICE = 'U0SANDBOX01'
const availability = await findRealHarness()
if (availability.skip) console.log(`real-host relay suite skipped: ${availability.skip}`)
const skipIfNoHarness = describe.skipIf(availability.skip !== undefined)
// A real host turn takes a model round trip or two, a restart a boot: generous, never a timed assertion.
const realHost = (name: string, body: () => void) => skipIfNoHarness(name, { timeout: 90_000 }, body)
const harness = (): RealHarness => availability.harness!

const COLOR_CALL = {
  name: 'ask_user_question',
  arguments: { questions: [{ id: 'color', question: 'Which color do you prefer?', header: 'Pick one', options: [{ label: 'Blue', description: 'A cool hue' }, { label: 'Green', description: 'A restful hue' }] }] },
}

const PLAN = '# Plan: add a cache\n\n1. Add `cache.ts` with an LRU map.\n2. Wire it into the **fetch** path.\n'

/** A `bash` call that needs the person's approval under the default preset: it asks for wider sandbox access. */
function escalatedBash(command: string) {
  return { name: 'bash', arguments: { command, description: 'Touch a file outside the workspace', sandbox_permissions: 'danger-full-access', justification: 'The target file lives outside the session workspace.' } }
}

const BOB = 'U0SANDBOX02'
const MIGRATION_STEP_3 = '3. Drop the old column once the deploy is done.'
const MIGRATION_PLAN = `# Plan: drop the legacy column\n\n1. Add the new column.\n2. Backfill it.\n${MIGRATION_STEP_3}\n4. Remove the fallback read.\n`
const REVISED_MIGRATION_PLAN = MIGRATION_PLAN.replace('2. Backfill it.', '2. Backfill it in batches of 10,000 rows.')

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

/** The tool result the model received for the first tool call after request `from`. */
async function toolResultAfter(slack: Sandbox, model: ScriptedModel, from: number): Promise<string> {
  return slack.waitFor(
    () => {
      for (const request of model.requests.slice(from)) {
        const tool = request.messages.findLast((message: ModelRequest['messages'][number]) => message.role === 'tool')
        if (tool) return typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content)
      }
      return undefined
    },
    { timeoutMs: 15_000, message: 'the model to receive the tool result' },
  )
}

/** The tool result the harness sent back for the model's `index`-th tool call, once it has. */
function toolResultOfCall(slack: Sandbox, model: ScriptedModel, index: number): Promise<string> {
  return slack.waitFor(
    () => {
      const id = model.callIds[index]
      return id === undefined ? undefined : model.toolResult(id)
    },
    { timeoutMs: 15_000, message: `the model to receive the result of tool call ${index}` },
  )
}

/** The host session's code channel with its plan canvas at `contentVersion`, once dsh-slack has placed it (the context bar is set last). */
function planCanvasOf(slack: Sandbox, session: string, contentVersion = 1) {
  return slack.waitFor(
    () => {
      const code = codeChannelOfSession(slack, session)
      const view = code?.views.find((v) => v.type === 'canvas')
      if (!code || !view?.canvasId || view.contentVersion < contentVersion || code.contextBar.length === 0) return undefined
      return { code, canvas: slack.codeChannels.canvas(view.canvasId) }
    },
    { timeoutMs: 15_000, message: `the session's plan canvas (version ${contentVersion})` },
  )
}

/** A Slack stand-in, a service-owned bridge on it (as `dsh-slack relay` makes one), and the relay of `hosts`. */
async function relayTo(hosts: Parameters<typeof startRelay>[0]['hosts'], sandbox: SandboxOptions = {}) {
  const rig = await startRig('socket', { owner: 'service' }, sandbox)
  const logger = recordingLogger()
  const relay: Relay = startRelay({ bridge: rig.bridge, hosts, logger, timing: { ...FAST, requestTimeoutMs: 1500 } })
  cleanups.push(() => relay.stop())
  await rig.slack.waitFor(() => relay.status().hosts.every((host) => host.state === 'connected') || undefined, { timeoutMs: 15_000, message: 'the relay to connect' })
  return { ...rig, relay, logger, alice: rig.slack.user(ALICE) }
}

/** The message with that ts once its text matches. */
function messageMatching(slack: Sandbox, channel: string, ts: string, pattern: RegExp, timeoutMs = 15_000): Promise<StoredMessage> {
  return slack.waitFor(
    () => {
      const message = slack.messages(channel).find((m) => m.ts === ts)
      return message && pattern.test(visibleText(message)) ? message : undefined
    },
    { timeoutMs, message: `message ${ts} to match ${pattern}` },
  )
}

/** Every text the message ever showed, oldest first (the stand-in keeps chat.update's history). */
function everyVersion(slack: Sandbox, channel: string, ts: string): string[] {
  const message = slack.messages(channel).find((m) => m.ts === ts)
  if (!message) return []
  return [...message.history.map((version) => visibleText({ text: version.text, blocks: version.blocks ?? [] } as Pick<StoredMessage, 'text' | 'blocks'>)), visibleText(message)]
}

/** A fresh model and `dsh web` for one describe; closed after it. */
function hostPerDescribe(options: { accessSecret?: string } = {}) {
  const state = {} as { model: ScriptedModel; host: DshWeb }
  beforeAll(async () => {
    state.model = await startScriptedModel()
    state.host = await startDshWeb(harness(), { model: state.model, ...options })
  }, HARNESS_BUILD_TIMEOUT_MS)
  afterAll(async () => {
    await state.host?.close()
    await state.model?.close()
  })
  return state
}

realHost('relay against the real dsh web: questions and plan reviews', () => {
  const state = hostPerDescribe()

  it('sends the option a person taps in Slack to the host, and the model receives it as the tool result', async () => {
    const { host, model } = state
    const { slack, channel, alice } = await relayTo([host.url])
    const session = await host.createSession()
    model.script({ toolCalls: [COLOR_CALL] }, { text: 'Green it is.' })
    const from = model.requests.length
    await host.prompt(session, 'Paint the shed.')

    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain('Which color do you prefer?')
    expect(visibleText(card)).toContain(session)
    await alice.click(card, 'Green')

    expect(JSON.parse(await toolResultAfter(slack, model, from))).toEqual({ answers: [{ id: 'color', selected: ['Green'] }] })
    expect(visibleText(await messageMatching(slack, channel, card.ts, /Answered by/))).toContain('Green')
  })

  it('approves a plan from its card: plan mode ends, and the model is told to carry it out', async () => {
    const { host, model } = state
    const { slack, channel, alice } = await relayTo([host.url])
    const session = await host.createSession()
    await host.planMode(session)
    model.script({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Carrying it out.' })
    const from = model.requests.length
    await host.prompt(session, 'Plan a cache.')

    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain('Plan: add a cache')
    await alice.click(card, 'Approve')

    expect(await toolResultAfter(slack, model, from)).toMatch(/Plan approved — plan mode exited/)
    await messageMatching(slack, channel, card.ts, /Approved by/)
  })

  it('sends requested changes on a plan as feedback the model receives, and plan mode goes on', async () => {
    const { host, model } = state
    const { slack, channel, alice } = await relayTo([host.url])
    const session = await host.createSession()
    await host.planMode(session)
    model.script({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Revising.' })
    const from = model.requests.length
    await host.prompt(session, 'Plan a cache.')

    const card = await postedMessage(slack, channel)
    await alice.click(card, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'Use the existing LRU package instead.')
    await alice.submit()

    expect(await toolResultAfter(slack, model, from)).toMatch(/keep planning; their feedback: Use the existing LRU package instead\./)
    await messageMatching(slack, channel, card.ts, /Changes requested by/)
  })

  it('reviews a plan in the host session’s code channel: alice’s comment on step 3 reaches the model verbatim with Request changes, the revision keeps it there, bob approves on the card, and the audit has both', async () => {
    const { host, model } = state
    const { slack, channel, alice, bridge } = await relayTo([host.url], { scopes: [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write'] })
    const session = await host.createSession()
    await host.planMode(session)
    model.script({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: MIGRATION_PLAN } }] }, { toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: REVISED_MIGRATION_PLAN } }] }, { text: 'Carrying it out.' })
    const from = model.callIds.length
    await host.prompt(session, 'Plan the migration.')

    const first = await postedMessage(slack, channel)
    const { code, canvas } = await planCanvasOf(slack, session)
    expect(code.origin).toEqual({ channel, ts: first.ts })
    expect(code.contextBar).toContainEqual({ key: 'session', label: session, icon: 'terminal' })
    alice.commentOnCanvas(canvas.id, 'Drop the old column once the deploy is done', 'Which deploy? The API one or the worker one?')
    await alice.click(first, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'See my comment on step 3.')
    await alice.submit()

    expect(await toolResultOfCall(slack, model, from)).toContain(`their feedback: See my comment on step 3.\n\nComment on the plan canvas:\n\n> Drop the old column once the deploy is done\n- alice (${ALICE}): Which deploy? The API one or the worker one?`)
    const second = await slack.waitFor(() => slack.messages(channel).find((m) => m.thread_ts === undefined && m.ts !== first.ts), { timeoutMs: 15_000, message: 'the revised plan’s card' })
    const revised = await planCanvasOf(slack, session, 2)
    expect(revised.canvas.id).toBe(canvas.id)
    expect(revised.canvas.comments).toHaveLength(1)
    expect(revised.canvas.sections.find((s) => s.id === revised.canvas.comments[0]!.sectionId)?.markdown).toBe(MIGRATION_STEP_3)
    await eventually(async () => (await bridge.store.listPending()).some((record) => record.message?.ts === second.ts))
    await slack.user(BOB).click(second, 'Approve')

    expect(await toolResultOfCall(slack, model, from + 1)).toMatch(/^Plan approved/)
    const events = await bridge.store.listEvents({ limit: 1000 })
    expect(events.filter((event) => event.type === 'posted').map((event) => (event.detail as { agent?: { id: string } }).agent?.id)).toEqual([session, session])
    expect(events.filter((event) => event.type === 'answered').map((event) => [event.by?.id, (event.detail as { answer: { answers: unknown[] } }).answer.answers[0]])).toEqual([
      [ALICE, { id: expect.any(String), selected: [], custom: expect.stringContaining('- alice (U0SANDBOX01): Which deploy?') }],
      [BOB, { id: expect.any(String), selected: ['Approve'] }],
    ])
  })

  it('dismissing a plan review from Slack gives the model plan mode\'s own "wait for their message"', async () => {
    const { host, model } = state
    const { slack, channel, alice } = await relayTo([host.url])
    const session = await host.createSession()
    await host.planMode(session)
    model.script({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Waiting.' })
    const from = model.requests.length
    await host.prompt(session, 'Plan a cache.')

    const card = await postedMessage(slack, channel)
    await alice.click(card, 'Dismiss')

    expect(await toolResultAfter(slack, model, from)).toMatch(/dismissed the plan review to speak instead; stay in plan mode/)
    await messageMatching(slack, channel, card.ts, /Dismissed by/)
  })

  it('says "Answered outside Slack" when the question is answered in the web UI, and takes the controls away', async () => {
    const { host, model } = state
    const { slack, channel } = await relayTo([host.url])
    const session = await host.createSession()
    model.script({ toolCalls: [COLOR_CALL] }, { text: 'Blue then.' })
    const from = model.requests.length
    const asked = host.nextRequest('question/requested')
    await host.prompt(session, 'Paint the shed.')
    const card = await postedMessage(slack, channel)
    const { rpcId } = await asked

    expect(await host.respond({ type: 'client-response', rpcId, result: { ok: true, value: { sessionId: session, answer: { answers: [{ id: 'color', selected: ['Blue'] }] } } } })).toEqual({ accepted: true })

    const final = await messageMatching(slack, channel, card.ts, /Answered outside Slack/)
    expect(interactiveElements(final)).toEqual([])
    expect(JSON.parse(await toolResultAfter(slack, model, from))).toEqual({ answers: [{ id: 'color', selected: ['Blue'] }] })
  })
})

realHost('relay against the real dsh web: tool approvals', () => {
  const state = hostPerDescribe()
  const outside = freshDshHome()
  afterAll(() => removeQuietly(outside))

  it('shows the command on the card and runs it when allowed once from Slack', async () => {
    const { host, model } = state
    const { slack, channel, alice } = await relayTo([host.url])
    const target = join(outside, 'allowed.txt')
    const session = await host.createSession()
    model.script({ toolCalls: [escalatedBash(`touch ${target}`)] }, { text: 'Touched.' })
    const from = model.requests.length
    await host.prompt(session, 'Touch the file.')

    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain(`touch ${target}`)
    expect(visibleText(card)).toContain('outside the session workspace')
    await alice.click(card, 'Allow once')

    expect(await toolResultAfter(slack, model, from)).not.toMatch(/reject/i)
    expect(existsSync(target)).toBe(true)
    await messageMatching(slack, channel, card.ts, /Allowed once by/)
  })

  it('rejects from Slack: the command does not run and the model is told the person rejected it', async () => {
    const { host, model } = state
    const { slack, channel, alice } = await relayTo([host.url])
    const target = join(outside, 'rejected.txt')
    const session = await host.createSession()
    model.script({ toolCalls: [escalatedBash(`touch ${target}`)] }, { text: 'Understood.' })
    const from = model.requests.length
    await host.prompt(session, 'Touch the file.')

    const card = await postedMessage(slack, channel)
    await alice.click(card, 'Reject')

    expect(await toolResultAfter(slack, model, from)).toMatch(/the user rejected escalating this command/)
    expect(existsSync(target)).toBe(false)
    await messageMatching(slack, channel, card.ts, /Rejected by/)
  })

  it('says "Rejected outside Slack" when the approval is rejected in the web UI', async () => {
    const { host, model } = state
    const { slack, channel } = await relayTo([host.url])
    const session = await host.createSession()
    model.script({ toolCalls: [escalatedBash(`touch ${join(outside, 'web-ui.txt')}`)] }, { text: 'Understood.' })
    const from = model.requests.length
    const asked = host.nextRequest('approval/requested')
    await host.prompt(session, 'Touch the file.')
    const card = await postedMessage(slack, channel)
    const { rpcId, payload } = await asked

    await host.respond({ type: 'client-response', rpcId, result: { ok: true, value: { sessionId: session, approvalId: payload.approvalId, outcome: 'rejected' } } })

    const final = visibleText(await messageMatching(slack, channel, card.ts, /Rejected outside Slack/))
    expect(final).not.toMatch(/Answered/)
    expect(await toolResultAfter(slack, model, from)).toMatch(/rejected/)
  })

  it('connecting after the tool call was made, finds the command in the session history and draws the card again with it', async () => {
    const { host, model } = state
    const target = join(outside, 'late.txt')
    const session = await host.createSession()
    model.script({ toolCalls: [escalatedBash(`touch ${target}`)] }, { text: 'Understood.' })
    const from = model.requests.length
    const asked = host.nextRequest('approval/requested')
    await host.prompt(session, 'Touch the file.')
    await asked

    const { slack, channel, alice } = await relayTo([host.url])
    const card = await postedMessage(slack, channel)
    const updated = await slack.waitFor(() => {
      const message = slack.messages(channel).find((m) => m.ts === card.ts)
      return message && visibleText(message).includes(`touch ${target}`) ? message : undefined
    })
    // Posted without the command (the replay carries none), then drawn again with it.
    expect(everyVersion(slack, channel, card.ts)[0]).toMatch(/has not seen this call’s arguments yet/)
    await alice.click(updated, 'Reject')
    expect(await toolResultAfter(slack, model, from)).toMatch(/rejected/)
  })
})

realHost('relay against the real dsh web: outages', () => {
  const state = hostPerDescribe()

  it('while the host is frozen, a click says the answer is being delivered, warns once, and says who answered once the host takes it', async () => {
    const { host, model } = state
    const { slack, channel, alice, relay, logger } = await relayTo([host.url])
    const session = await host.createSession()
    model.script({ toolCalls: [COLOR_CALL] }, { text: 'Green it is.' })
    const from = model.requests.length
    await host.prompt(session, 'Paint the shed.')
    const card = await postedMessage(slack, channel)

    host.freeze()
    try {
      await alice.click(card, 'Green')
      const waiting = await messageMatching(slack, channel, card.ts, /Delivering <@U0SANDBOX01>'s answer to the host/)
      expect(visibleText(waiting)).not.toMatch(/Answered by/)
      // Several attempts time out while it is frozen (1.5 s each here).
      await slack.waitFor(() => logger.text('debug').filter((line) => line.includes('could not send')).length >= 1 || undefined, { timeoutMs: 15_000, message: 'a repeated delivery failure' })
      expect(relay.status().hosts[0]?.outbox).toBe(1)
    } finally {
      host.thaw()
    }

    expect(JSON.parse(await toolResultAfter(slack, model, from))).toEqual({ answers: [{ id: 'color', selected: ['Green'] }] })
    await messageMatching(slack, channel, card.ts, /Answered by/)
    expect(logger.text('warn').filter((line) => line.includes('could not send'))).toHaveLength(1)
    expect(logger.text('info').filter((line) => line.includes('the host answers again'))).toHaveLength(1)
  })

  it('with a click queued over a host restart, never says "Answered by": the restarted host no longer holds the question, and the card says the answer was not delivered', async () => {
    const { host, model } = state
    const { slack, channel, alice, relay } = await relayTo([host.url])
    const session = await host.createSession()
    model.script({ toolCalls: [COLOR_CALL] }, { text: 'Blue it is.' })
    await host.prompt(session, 'Paint the shed.')
    const card = await postedMessage(slack, channel)

    await host.stop()
    await slack.waitFor(() => (relay.status().hosts[0]?.state !== 'connected') || undefined, { message: 'the relay to notice the host is gone' })
    await alice.click(card, 'Blue')
    await messageMatching(slack, channel, card.ts, /Delivering <@U0SANDBOX01>'s answer to the host/)
    await host.restart()

    const final = await messageMatching(slack, channel, card.ts, /answer was not delivered/, 20_000)
    expect(visibleText(final)).toMatch(/No longer open on the host/)
    expect(everyVersion(slack, channel, card.ts).filter((text) => /Answered by/.test(text))).toEqual([])
    const notice = await slack.waitFor(() => slack.ephemerals(ALICE, channel).find((e) => /not delivered/.test(e.text)))
    expect(notice.text).toMatch(/no longer open on the host/)
  })
})

realHost('relay against the real dsh web: two hosts, each with its own access secret', () => {
  const first = hostPerDescribe({ accessSecret: 'first-host-secret-0123456789' })
  const second = hostPerDescribe({ accessSecret: 'second-host-secret-9876543210' })

  it('as `dsh-slack relay` from the environment: logs in to each host with its own secret, names the host on each card, and answers each host\'s question to that host', async () => {
    let slack: Sandbox | undefined
    let stop!: () => void
    const logger = recordingLogger()
    const exit = runRelayCommand([], {
      env: {
        DSH_HOST_URL: `${first.host.url},${second.host.url}`,
        DSH_HOST_ACCESS_SECRET: `${first.host.accessSecret},${second.host.accessSecret}`,
        DSH_SLACK_STATE: ':memory:',
      },
      stdout: { write: () => true },
      stderr: { write: (text: string) => logger.error(text) },
      stopRequested: new Promise<void>((resolve) => (stop = resolve)),
      logger,
      startLocalSlack: async () => {
        const started = (slack = await startSandbox())
        return { apiUrl: started.apiUrl, botToken: started.botToken, appToken: started.appToken, channel: started.defaultChannel, stop: () => started.close() }
      },
    })
    cleanups.push(async () => {
      stop()
      await exit
    })
    await vi.waitFor(() => expect(logger.text('info').filter((line) => line.endsWith(': connected'))).toHaveLength(2), { timeout: 15_000 })
    const channel = slack!.defaultChannel
    const alice = slack!.user(ALICE)
    const sessions = [await first.host.createSession(), await second.host.createSession()]
    first.model.script({ toolCalls: [COLOR_CALL] }, { text: 'ok' })
    second.model.script({ toolCalls: [COLOR_CALL] }, { text: 'ok' })
    const from = [first.model.requests.length, second.model.requests.length]

    await first.host.prompt(sessions[0]!, 'Paint the shed.')
    const firstCard = await postedMessage(slack!, channel)
    await second.host.prompt(sessions[1]!, 'Paint the fence.')
    const secondCard = await slack!.waitFor(() => slack!.messages(channel).find((m) => m.ts !== firstCard.ts && m.thread_ts === undefined))

    expect(visibleText(firstCard)).toContain(`host \`127.0.0.1:${first.host.port}\``)
    expect(visibleText(secondCard)).toContain(`host \`127.0.0.1:${second.host.port}\``)
    await alice.click(firstCard, 'Blue')
    await alice.click(secondCard, 'Green')

    expect(JSON.parse(await toolResultAfter(slack!, first.model, from[0]!))).toEqual({ answers: [{ id: 'color', selected: ['Blue'] }] })
    expect(JSON.parse(await toolResultAfter(slack!, second.model, from[1]!))).toEqual({ answers: [{ id: 'color', selected: ['Green'] }] })
    expect(logger.text('error')).toEqual([])
    stop()
    expect(await exit).toBe(0)
  })
})
