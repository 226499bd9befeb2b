import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { Context, Service } from '@deepseek-ai/cordis'
import { ApprovalService } from '@deepseek-ai/dsh-user-approval'
import UserQuestionService from '@deepseek-ai/dsh-user-questions'
import type { PolicyInput } from '../../src/bridge/ask-policy.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { askCommand } from '../../src/cli/ask.js'
import type { StopSignal } from '../../src/cli/cli-io.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { connectToService } from '../../src/client/connect-to-service.js'
import { configFromEnv } from '../../src/config/config.js'
import { isUserInteractionError, type AskUserQuestionAnswer, type AskUserQuestionItem } from '../../src/contract/index.js'
import * as pluginModule from '../../src/cordis/index.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { loadCreateSlackBridge } from '../../src/service/bridge-factory.js'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { sandboxEnv } from '../support/sandbox-env.js'

/**
 * The ways into dsh-slack, each as an agent uses it, behind one small
 * interface so the promise matrix can run every outcome through every door.
 * A new door is one more entry in DOORS.
 */

/** What the agent ends up with: the answer, or the seam's error code (however the door spells it). */
export type AgentGot = { answer: AskUserQuestionAnswer } | { error: string } | { decision: string }

/** One ask in flight through a door. */
export interface Asking {
  /** Settles once the agent has its result (never rejects: a failure is `{ error }`). */
  got: Promise<AgentGot>
  /** The agent withdraws the question, the door's own way (abort signal, DELETE, Ctrl-C). */
  withdraw(): void
}

export interface AskInput {
  questions: AskUserQuestionItem[]
  policy?: PolicyInput
  timeoutMs?: number
}

/** A door, started on its own stand-in for one cell of the matrix. */
export interface DoorRun {
  slack: Sandbox
  channel: string
  /** The audit trail's event types of the ask whose card is `ts`, oldest first. */
  auditTrail(ts: string): Promise<string[]>
  ask(input: AskInput): Asking
  /** A tool approval for `command` (doors with tools only). */
  approve?(command: string): Asking
  close(): Promise<void>
}

export interface Door {
  name: string
  /** Whether the door asks tool approvals too (allow / reject). */
  tools?: true
  start(): Promise<DoorRun>
}

/** The event types recorded for the ask posted as message `ts`. */
export async function auditTrailOf(store: AskStore, ts: string): Promise<string[]> {
  const posted = (await store.listEvents({ limit: 1000 })).find((event) => event.type === 'posted' && event.detail?.ts === ts)
  if (!posted) return []
  return (await store.events(posted.askId)).map((event) => event.type)
}

/** The audit trail of the ask posted as `ts`, from a state file its process has closed. */
export async function auditTrailInFile(state: string, ts: string): Promise<string[]> {
  const store = new SqliteAskStore(state)
  try {
    return await auditTrailOf(store, ts)
  } finally {
    await store.close()
  }
}

const settledStatuses = new Set(['answered', 'cancelled', 'expired', 'aborted', 'failed', 'stopped'])

async function startedService(slack: Sandbox): Promise<RunningService> {
  return startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0' }), await serviceDeps(), silentLogger)
}

/** The agent's side of the HTTP API: POST (once, or again with the same key as a client that lost the response), then long-poll. */
function askOverHttp(service: RunningService, input: AskInput, how: { idempotencyKey?: string; retried?: boolean }): Asking {
  let id: Promise<string>
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(how.idempotencyKey ? { 'idempotency-key': how.idempotencyKey } : {}) }
  const body = JSON.stringify({ questions: input.questions, ...(input.policy ? { policy: input.policy } : {}), ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}) })
  const post = async () => {
    const response = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers, body })
    const created = (await response.json()) as { id?: string; error?: { code: string } }
    if (response.status !== 201 || !created.id) throw new Error(`POST /v1/asks answered ${response.status}: ${JSON.stringify(created)}`)
    return created.id
  }
  id = post().then(async (first) => {
    if (!how.retried) return first
    const again = await post()
    if (again !== first) throw new Error(`a retried POST made a second ask (${first}, then ${again})`)
    return first
  })
  const got = id.then(async (askId) => {
    for (;;) {
      const response = await fetch(`${service.url}/v1/asks/${askId}?wait=30`)
      const state = (await response.json()) as { status: string; answer?: AskUserQuestionAnswer; error?: { code: string } }
      if (!settledStatuses.has(state.status)) continue
      return state.answer ? { answer: state.answer } : { error: state.error?.code ?? state.status }
    }
  })
  return { got: got.catch((error: unknown) => ({ error: String(error) })), withdraw: () => void id.then((askId) => fetch(`${service.url}/v1/asks/${askId}`, { method: 'DELETE' })) }
}

/** A seam `ask()` (library, thin client, plugin): the answer, or the UserInteractionError's code. */
function askThroughProvider(ask: (signal: AbortSignal) => Promise<AskUserQuestionAnswer>): Asking {
  const agent = new AbortController()
  const got = ask(agent.signal).then(
    (answer): AgentGot => ({ answer }),
    (error: unknown): AgentGot => ({ error: isUserInteractionError(error) || (error as { code?: unknown }).code ? String((error as { code: unknown }).code) : String(error) }),
  )
  return { got, withdraw: () => agent.abort() }
}

/** `dsh-slack ask` run in this process, as its `main` runs it: stdin, stdout, stderr and Ctrl-C in hand. */
function askThroughCli(args: string[], env: Record<string, string>, input: AskInput, createBridge: () => Promise<(options: never) => Promise<SlackBridge>>): Asking {
  let out = ''
  let err = ''
  const listeners: ((signal: StopSignal) => void)[] = []
  const request = { questions: input.questions, ...(input.policy ? { policy: input.policy } : {}) }
  const io = {
    env,
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdin: Readable.from([JSON.stringify(request)]),
    onSignal: (listener: (signal: StopSignal) => void) => {
      listeners.push(listener)
      return () => listeners.splice(listeners.indexOf(listener), 1)
    },
  }
  const timeout = input.timeoutMs ? ['--timeout', `${input.timeoutMs}ms`] : []
  const got = askCommand([...args, ...timeout], io, { createBridge: createBridge as never }).then((code): AgentGot => {
    if (code === 0) return { answer: JSON.parse(out) as AskUserQuestionAnswer }
    return { error: /dsh-slack ask: ([A-Z_]+):/.exec(err)?.[1] ?? `exit ${code}: ${err}` }
  })
  return { got, withdraw: () => listeners.forEach((listener) => listener('SIGINT')) }
}

/** The harness's loader, stood in: a `loader` service exists once a profile's entries have loaded. */
class LoaderStandIn extends Service {
  constructor(ctx: Context) {
    super(ctx, 'loader')
  }
}

async function serviceDoor(slack: Sandbox): Promise<{ service: RunningService; base: Omit<DoorRun, 'ask'> }> {
  const service = await startedService(slack)
  return { service, base: { slack, channel: slack.defaultChannel, auditTrail: (ts) => auditTrailOf(service.bridge.store, ts), close: async () => { await service.stop(); await slack.close() } } }
}

export const DOORS: Door[] = [
  {
    name: 'POST /v1/asks',
    async start() {
      const { service, base } = await serviceDoor(await startSandbox())
      return { ...base, ask: (input) => askOverHttp(service, input, {}) }
    },
  },
  {
    name: 'POST /v1/asks with an Idempotency-Key',
    async start() {
      const { service, base } = await serviceDoor(await startSandbox())
      return { ...base, ask: (input) => askOverHttp(service, input, { idempotencyKey: randomUUID() }) }
    },
  },
  {
    name: 'POST /v1/asks retried with its Idempotency-Key',
    async start() {
      const { service, base } = await serviceDoor(await startSandbox())
      return { ...base, ask: (input) => askOverHttp(service, input, { idempotencyKey: randomUUID(), retried: true }) }
    },
  },
  {
    name: 'connectToService (thin client)',
    async start() {
      const { service, base } = await serviceDoor(await startSandbox())
      return {
        ...base,
        ask(input) {
          const connection = connectToService({ url: service.url, ...(input.timeoutMs ? { timeout: input.timeoutMs } : {}) })
          const asking = askThroughProvider((signal) => connection.provider.ask({ questions: input.questions, signal }, input.policy ? { policy: input.policy } : {}))
          void asking.got.finally(() => connection.stop())
          return asking
        },
      }
    },
  },
  {
    name: 'dsh-slack ask --url',
    async start() {
      const { service, base } = await serviceDoor(await startSandbox())
      return { ...base, ask: (input) => askThroughCli(['--url', service.url], {}, input, loadCreateSlackBridge) }
    },
  },
  {
    name: 'dsh-slack ask (in-process)',
    async start() {
      const slack = await startSandbox()
      // A file, read again once the command has ended (its bridge closes the store as it stops).
      const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-matrix-'))
      const state = join(dir, 'cli.sqlite')
      return {
        slack,
        channel: slack.defaultChannel,
        auditTrail: (ts) => auditTrailInFile(state, ts),
        ask: (input) => askThroughCli([], { ...sandboxEnv(slack), DSH_SLACK_STATE: state }, input, loadCreateSlackBridge),
        close: async () => {
          await slack.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: 'createSlackBridge (library)',
    async start() {
      const slack = await startSandbox()
      let started: Promise<SlackBridge> | undefined
      return {
        slack,
        channel: slack.defaultChannel,
        auditTrail: async (ts) => auditTrailOf((await started!).store, ts),
        ask(input) {
          // The library's expiry is the bridge's `timeout`: the bridge starts with the cell's one ask.
          started = createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger, ...(input.timeoutMs ? { timeout: input.timeoutMs } : {}) })
          const bridge = started
          return askThroughProvider(async (signal) => (await bridge).provider.ask({ questions: input.questions, signal }, input.policy ? { policy: input.policy } : {}))
        },
        close: async () => {
          await (await started?.catch(() => undefined))?.stop()
          await slack.close()
        },
      }
    },
  },
  {
    name: 'the plugin through serviceUrl',
    async start() {
      const { service, base } = await serviceDoor(await startSandbox())
      return {
        ...base,
        ask(input) {
          const ctx = new Context()
          // Loaded as the harness's loader does: the profile's raw config, not the parsed settings cordis types it as.
          const loaded = (async () => {
            await ctx.plugin(UserQuestionService)
            await ctx.plugin(LoaderStandIn)
            const fiber = await ctx.plugin(pluginModule.default as never, { serviceUrl: service.url, ...(input.timeoutMs ? { timeout: input.timeoutMs } : {}) } as never)
            return { fiber, seam: (ctx as unknown as { userQuestions: { ask(request: unknown): Promise<AskUserQuestionAnswer> } }).userQuestions }
          })()
          const asking = askThroughProvider(async (signal) => (await loaded).seam.ask({ questions: input.questions, signal }))
          void asking.got.finally(async () => (await loaded).fiber.dispose())
          return asking
        },
      }
    },
  },
  {
    name: 'the plugin with its own bridge',
    tools: true,
    async start() {
      const slack = await startSandbox()
      const ctx = new Context()
      let fiber: { dispose(): unknown } | undefined
      let timeout: number | undefined
      let bridge: SlackBridge | undefined
      // The plugin as published, with the real bridge kept in hand to read its audit trail.
      const plugin = pluginModule.createSlackPlugin(async () => async (options) => (bridge = await createSlackBridge(options)))
      // Loaded at the first ask or approval, with that cell's timeout, as a profile entry with its own Slack tokens.
      const loaded = async () => {
        if (!fiber) {
          await ctx.plugin(UserQuestionService)
          await ctx.plugin(ApprovalService, {})
          await ctx.plugin(LoaderStandIn)
          const config = { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', ...(timeout ? { timeout } : {}) }
          fiber = (await ctx.plugin(plugin as never, config as never)) as { dispose(): unknown }
        }
        return ctx as unknown as { userQuestions: { ask(request: unknown): Promise<AskUserQuestionAnswer> }; approval: { request(request: unknown): Promise<string> } }
      }
      return {
        slack,
        channel: slack.defaultChannel,
        auditTrail: async (ts) => auditTrailOf(bridge!.store, ts),
        ask(input) {
          timeout = input.timeoutMs
          return askThroughProvider(async (signal) => (await loaded()).userQuestions.ask({ questions: input.questions, signal }))
        },
        approve(command) {
          const agent = new AbortController()
          const call = { type: 'assistant/message', data: { message: { content: [{ type: 'tool-call', id: 'call-1', name: 'bash', arguments: { command } }] } } }
          const events: { type: string; data?: unknown }[] = [{ type: 'turn/start' }, call]
          const session = { id: 'session-1', header: { cwd: '/work/app' }, events, append: (type: string, data: unknown) => void events.push({ type, data }) }
          const got = loaded()
            .then((seam) => seam.approval.request({ agent: { id: 'session-1', session }, toolName: 'bash', callId: 'call-1', reason: 'runs outside the workspace', signal: agent.signal }))
            .then((decision): AgentGot => ({ decision }), (error: unknown): AgentGot => ({ error: String(error) }))
          return { got, withdraw: () => agent.abort() }
        },
        close: async () => {
          await fiber?.dispose()
          await slack.close()
        },
      }
    },
  },
]
