import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AskUserQuestionItem } from '../../src/contract/index.js'
import { silentLogger } from '../../src/log/logger.js'
import { startRelay, type Relay } from '../../src/relay/index.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { startHeadless, type DshRun } from '../support/harness/dsh-process.js'
import { startDshWeb, type DshWeb } from '../support/harness/dsh-web.js'
import { configureHeadlessPlugin, setUpHeadlessSuite, stopRuns, tearDownHeadlessSuite, type HeadlessSuite } from '../support/harness/headless-suite.js'
import { findRealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from '../support/harness/scripted-model.js'
import { FAST } from '../relay/support/fixtures.js'
import { interactiveElements } from '../support/messages.js'
import { auditTrailInFile, auditTrailOf, type AgentGot, type AskInput, type Asking, type Door, type DoorRun } from './doors.js'

/**
 * The two doors that need the real harness (../shared/harness/build.sh): the
 * plugin inside a headless `dsh` run, and the relay on a real `dsh web`. In
 * both the agent is the scripted model: it asks through the harness's own
 * tools (ask_user_question, exit_plan_mode in plan mode, an escalated bash
 * call), and what it gets is the tool result in its next request. One
 * harness set-up per door (a profile with dsh-slack added; one `dsh web`),
 * shared by its cells; each cell has its own Slack stand-in.
 */

const PLAN_MODE_ON = new URL('../support/harness/plan-mode-on.mjs', import.meta.url).pathname

/** The plan's markdown when the ask is the harness's plan review, else undefined. */
function planOf(input: AskInput): string | undefined {
  const [only] = input.questions
  return only?.intent?.kind === 'plan-review' ? only.detail : undefined
}

/** The model's turn that asks `input`: exit_plan_mode for a plan review, else ask_user_question in the tool's own spelling. */
function askingTurn(input: AskInput): ScriptedReply {
  const plan = planOf(input)
  if (plan !== undefined) return { toolCalls: [{ name: 'exit_plan_mode', arguments: { plan } }] }
  const questions = input.questions.map(({ multiSelect, ...item }: AskUserQuestionItem) => ({ ...item, ...(multiSelect ? { multi_select: true } : {}) }))
  return { toolCalls: [{ name: 'ask_user_question', arguments: { questions } }] }
}

/** A bash call the default preset asks a person about: it wants access outside the sandbox. */
function escalatedCall(command: string): ScriptedReply {
  return { toolCalls: [{ name: 'bash', arguments: { command, description: 'clean the build', sandbox_permissions: 'danger-full-access', justification: 'needs to run outside the sandbox' } }] }
}

/** The first tool result the model received in a request after request `from`. */
function toolResultAfter(model: ScriptedModel, from: number): string | undefined {
  for (const request of model.requests.slice(from)) {
    const tool = request.messages.findLast((message) => message.role === 'tool')
    if (tool) return typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content)
  }
  return undefined
}

/**
 * What the agent got, read from the model's tool result into the matrix's
 * terms. The harness words each outcome its own way: an answer is the JSON
 * the seam returned; plan mode says approved / "their feedback: …" /
 * dismissed; an expired question reaches the model as the error's message
 * (the plugin's) or the cancellation's reason (the relay's); a withdrawn ask (Ctrl-C, a cancelled turn) ends the turn,
 * so the model receives no tool result at all.
 */
export function agentGotFrom(result: string | undefined, how: { withdrawn: boolean; tool: boolean }): AgentGot {
  if (result === undefined) return how.withdrawn ? { error: 'ASK_ABORTED' } : { error: 'the model received no tool result' }
  if (how.tool) return /the user rejected|rejected in Slack/i.test(result) ? { decision: 'rejected' } : { decision: 'allowed-once' }
  if (/^Plan approved/.test(result)) return { answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } }
  const feedback = /their feedback: ([\s\S]*?)$/.exec(result.trim())
  if (feedback) return { answer: { answers: [{ id: 'plan-review', selected: [], custom: feedback[1]! }] } }
  if (/dismissed the plan review|the user cancelled/.test(result)) return { error: 'ASK_CANCELLED' }
  const code = /\bASK_[A-Z_]+\b/.exec(result)
  if (code) return { error: code[0] }
  // The harness shows the model the error's message, not its code: the plugin's ASK_EXPIRED message, or the relay's cancellation reason.
  if (/nobody answered the question in time|expired in Slack without an answer/.test(result)) return { error: 'ASK_EXPIRED' }
  try {
    return { answer: JSON.parse(result) as never }
  } catch {
    return { error: `unread tool result: ${result}` }
  }
}

/** The harness, or a thrown reason (the matrix skips these doors first when it is missing). */
async function harnessHere() {
  const found = await findRealHarness()
  if (found.skip !== undefined) throw new Error(found.skip)
  return found.harness
}

/** A door that needs the real harness, with a set-up shared by its cells and torn down once after them. */
export interface HarnessDoor extends Door {
  realHarness: true
  /** How long its card may take to appear: a headless run boots the harness, and both wait for a model turn (60 s, as plugin-headless allows). */
  postsWithinMs: number
  finish(): Promise<void>
}

function headlessDoor(): HarnessDoor {
  let suite: Promise<HeadlessSuite> | undefined
  return {
    name: 'the plugin in a real headless harness',
    tools: true,
    realHarness: true,
    postsWithinMs: 60_000,
    async start(): Promise<DoorRun> {
      suite ??= setUpHeadlessSuite('the promise matrix headless door').then((set) => {
        if ('skip' in set) throw new Error(set.skip)
        return set
      })
      const { harness, model, home, work } = await suite
      model.reset()
      const slack = await startSandbox()
      const state = join(work, `matrix-${randomUUID()}.sqlite`)
      const runs: DshRun[] = []
      const headless = (turn: ScriptedReply, options: { timeoutMs?: number; plan?: boolean; tool?: boolean }): Asking => {
        configureHeadlessPlugin(home, { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state, ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}) })
        const patches = options.plan ? [planPatch(work)] : []
        model.script(turn, { text: 'Done.' })
        const from = model.requests.length
        const run = startHeadless(harness, { home, task: 'Set up the project', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' }, patches })
        runs.push(run)
        let withdrawn = false
        // Settles once the run has exited: its plugin has closed the state file the audit trail is read from.
        const got = run.exited.then(() => agentGotFrom(toolResultAfter(model, from), { withdrawn, tool: options.tool ?? false }))
        return { got, withdraw: () => ((withdrawn = true), run.child.kill('SIGINT')) }
      }
      return {
        slack,
        channel: slack.defaultChannel,
        auditTrail: (ts) => auditTrailInFile(state, ts),
        ask: (input) => headless(askingTurn(input), { ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}), plan: planOf(input) !== undefined }),
        approve: (command) => headless(escalatedCall(command), { tool: true }),
        close: async () => {
          await stopRuns(runs)
          await slack.close()
        },
      }
    },
    async finish() {
      const set = await suite?.catch(() => undefined)
      if (set) await tearDownHeadlessSuite(set)
    },
  }
}

/** The plan-mode fixture as a patch layer: a headless run has no `/plan`. */
function planPatch(work: string): string {
  const path = join(work, 'plan-mode-on.yml')
  writeFileSync(path, `- insert:\n  - id: test-plan-mode-on\n    name: ${JSON.stringify(PLAN_MODE_ON)}\n`)
  return path
}

function relayDoor(): HarnessDoor {
  let shared: Promise<{ model: ScriptedModel; host: DshWeb }> | undefined
  return {
    name: 'the relay on a real dsh web',
    tools: true,
    realHarness: true,
    postsWithinMs: 60_000,
    async start(): Promise<DoorRun> {
      shared ??= (async () => {
        const harness = await harnessHere()
        const model = await startScriptedModel()
        return { model, host: await startDshWeb(harness, { model }) }
      })()
      const { model, host } = await shared
      model.reset()
      const slack = await startSandbox()
      let bridge: Promise<SlackBridge> | undefined
      let relay: Relay | undefined
      // The bridge and relay start with the cell's ask: the relay's expiry is its bridge's `timeout` (DSH_SLACK_TIMEOUT).
      const relayed = (turn: ScriptedReply, options: { timeoutMs?: number; plan?: boolean; tool?: boolean }): Asking => {
        let withdrawn = false
        const asked = (async () => {
          bridge = createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger, owner: 'service', ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}) })
          relay = startRelay({ bridge: await bridge, hosts: [host.url], logger: silentLogger, timing: { ...FAST, requestTimeoutMs: 1500 } })
          await slack.waitFor(() => relay!.status().hosts.every((h) => h.state === 'connected') || undefined, { timeoutMs: 15_000, message: 'the relay to connect' })
          const session = await host.createSession()
          if (options.plan) await host.planMode(session)
          model.script(turn, { text: 'Done.' })
          const from = model.requests.length
          await host.prompt(session, 'Set up the project')
          return { session, from }
        })()
        let cancelled: Promise<unknown> | undefined
        const got = asked.then(({ from }) =>
          slack.waitFor(
            () => {
              const result = toolResultAfter(model, from)
              if (result !== undefined) return agentGotFrom(result, { withdrawn, tool: options.tool ?? false })
              // A cancelled turn gives the model nothing more: once the host has taken the cancel and the card is withdrawn, that is what the agent got.
              return withdrawn && cancelled && settledCard(slack) ? agentGotFrom(undefined, { withdrawn, tool: false }) : undefined
            },
            { timeoutMs: 30_000, message: 'the model to receive the tool result' },
          ),
        )
        return {
          got: got.catch((error: unknown): AgentGot => ({ error: String(error) })),
          withdraw() {
            withdrawn = true
            cancelled = asked.then(({ session }) => host.call('session.cancel', { sessionId: session }))
          },
        }
      }
      return {
        slack,
        channel: slack.defaultChannel,
        auditTrail: async (ts) => auditTrailOf((await bridge!).store, ts),
        ask: (input) => relayed(askingTurn(input), { ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}), plan: planOf(input) !== undefined }),
        approve: (command) => relayed(escalatedCall(command), { tool: true }),
        close: async () => {
          await relay?.stop()
          await (await bridge?.catch(() => undefined))?.stop()
          await slack.close()
        },
      }
    },
    async finish() {
      const set = await shared?.catch(() => undefined)
      await set?.host.close()
      await set?.model.close()
    },
  }
}

/** Whether the channel's card has lost its controls. */
function settledCard(slack: Sandbox): boolean {
  const card = slack.latestMessage(slack.defaultChannel)
  return card !== undefined && interactiveElements(card).length === 0
}

export const HARNESS_DOORS: HarnessDoor[] = [headlessDoor(), relayDoor()]
