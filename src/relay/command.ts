import { scrubSecrets } from '../log/scrub.js'
import type { SlackBridge } from '../bridge/types.js'
import { ConfigError } from '../config/config-error.js'
import { configFromEnv, type Config } from '../config/config.js'
import { loggerFor } from '../log/logger-for.js'
import type { Logger } from '../log/logger.js'
import type { CreateBridge } from '../service/bridge-factory.js'
import { bridgeOptionsFromConfig } from '../service/bridge-options.js'
import type { LocalSlack, StartLocalSlack } from '../service/local-slack.js'
import { forgetStandInAsks, standInFiles } from '../service/stand-in-files.js'
import { startStandIn } from '../service/stand-in.js'
import { stopNote, type StopNoteInput } from '../service/stop-note.js'
import { hostTargets, startRelay } from './start-relay.js'

export const RELAY_HELP = `Usage: dsh-slack relay [--fresh]

Answers a running harness web host's questions, plan reviews and tool
approvals from Slack. Run it next to \`dsh web\`: each request the host
relays is posted to SLACK_CHANNEL, and the person's answer goes back to the
host. Requests answered in the web UI, or withdrawn by the agent, are marked
so in Slack.

Environment (and .env):
  DSH_HOST_URL             the host, e.g. http://127.0.0.1:4000 (required;
                           comma-separated for several hosts)
  DSH_HOST_ACCESS_SECRET   the host's DSH_ACCESS_SECRET, when it runs with one
                           (several hosts: one entry per host, in the same
                           order, empty for a host without one)
  SLACK_BOT_TOKEN, SLACK_APP_TOKEN or SLACK_SIGNING_SECRET, SLACK_CHANNEL, …
                           as for \`dsh-slack serve\`

Open requests are kept in DSH_SLACK_STATE, so a restart of the relay never
posts a request twice (with DSH_SLACK_STATE=:memory:, they are withdrawn
when the relay stops, and the next start posts them again).

Without SLACK_BOT_TOKEN it runs against the built-in local Slack stand-in,
on 127.0.0.1:4100 (DSH_SLACK_SANDBOX_PORT), and prints its page's address.
As with \`dsh-slack serve\`, the stand-in keeps its workspace in
sandbox-PORT.json and the requests in sandbox-PORT.sqlite, beside DSH_SLACK_STATE,
so a pending request is still there, and still answerable, after a restart.

Options:
  --fresh      with the stand-in: start with an empty workspace and no requests
  -h, --help   show this help`

/** What the command needs from its process; tests pass their own. */
export interface RelayCommandIo {
  env: Record<string, string | undefined>
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopRequested: Promise<unknown>
  logger?: Logger
  createBridge?: CreateBridge
  startLocalSlack?: StartLocalSlack
}

const EXIT = { ok: 0, failure: 1, invalid: 2 } as const

/** `dsh-slack relay`: with the real process (environment with `.env`, signals, stderr logs). */
export async function relayCommand(argv: string[]): Promise<number> {
  const { loadEnv } = await import('../config/load-env.js')
  let signalled!: () => void
  const stopRequested = new Promise<void>((resolve) => (signalled = resolve))
  const onSignal = () => signalled()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    return await runRelayCommand(argv, { env: loadEnv(), stdout: process.stdout, stderr: process.stderr, stopRequested })
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/** The command with its process passed in; returns the exit code and never throws. */
export async function runRelayCommand(argv: string[], io: RelayCommandIo): Promise<number> {
  const unknown = argv.find((arg) => arg !== '-h' && arg !== '--help' && arg !== '--fresh')
  if (unknown !== undefined) {
    io.stderr.write(`dsh-slack relay: unknown argument ${JSON.stringify(unknown)} (see dsh-slack relay --help)\n`)
    return EXIT.invalid
  }
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${RELAY_HELP}\n`)
    return EXIT.ok
  }
  const fresh = argv.includes('--fresh')
  let config: Config
  try {
    config = configFromEnv(io.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    io.stderr.write(`dsh-slack relay: ${scrubSecrets(error.message)}\n`)
    return EXIT.invalid
  }
  if (config.hostUrls.length === 0) {
    io.stderr.write("dsh-slack relay: DSH_HOST_URL: is not set; set it to the harness web host's address, e.g. http://127.0.0.1:4000 (comma-separated for several)\n")
    return EXIT.invalid
  }
  const logger = io.logger ?? loggerFor(config.logFormat, { debug: io.env.DSH_SLACK_DEBUG === '1' })
  const stack: (() => Promise<void>)[] = []
  try {
    const started = await startBridge(config, io, logger, stack, fresh)
    const relay = startRelay({ bridge: started.bridge, hosts: hostTargets(config), logger })
    stack.push(() => relay.stop())
    logger.info(`relaying questions and approvals of ${config.hostUrls.join(', ')}`)
    await io.stopRequested
    logger.info(`stopping (${stopNote({ ...started.note, noun: 'requests', relay: true })})`)
    return EXIT.ok
  } catch (error) {
    io.stderr.write(`dsh-slack relay: ${scrubSecrets(error instanceof Error ? error.message : String(error))}\n`)
    return EXIT.failure
  } finally {
    for (const stop of stack.splice(0).reverse()) await stop().catch((error: unknown) => logger.warn(`shutdown: ${(error as Error).message}`))
  }
}

/** The bridge as `serve` makes it: Slack with a token, else the local stand-in. A service's asks outlive the process. */
async function startBridge(
  config: Config,
  io: RelayCommandIo,
  logger: Logger,
  stack: (() => Promise<void>)[],
  fresh: boolean,
): Promise<{ bridge: SlackBridge; note: StopNoteInput }> {
  let effective: Config & { botToken: string }
  let local: LocalSlack | undefined
  if (config.botToken) {
    effective = { ...config, botToken: config.botToken }
  } else {
    // Its own files beside DSH_SLACK_STATE, as with serve (stand-in-files.ts says why).
    const files = standInFiles(config.statePath, config.sandboxPort)
    if (fresh) forgetStandInAsks(files)
    const options = { port: config.sandboxPort, ...(files.workspaceFile ? { workspaceFile: files.workspaceFile } : {}), ...(fresh ? { fresh: true } : {}) }
    local = await (io.startLocalSlack ?? startStandIn)(options)
    stack.push(() => local!.stop())
    effective = { ...config, botToken: local.botToken, appToken: local.appToken, slackApiUrl: local.apiUrl, channel: config.channel ?? local.channel, statePath: files.statePath }
    delete effective.signingSecret
    io.stdout.write(`Open ${local.webUrl ?? local.apiUrl} to answer in the local Slack stand-in (set SLACK_BOT_TOKEN to use Slack)\n`)
  }
  const createBridge = io.createBridge ?? (await import('../slack-app/create-slack-bridge.js')).createSlackBridge
  // HTTP mode: Slack's requests come to HOST:PORT/slack/events, as with serve.
  const listen = effective.appToken ? false : { host: config.host, port: config.port }
  const bridge = await createBridge({ ...bridgeOptionsFromConfig(effective, { owner: 'service', logger }), listen })
  // Not withdrawn even when kept in memory: the host still waits for these requests, and the next start posts them again.
  stack.push(() => bridge.stop())
  const note: StopNoteInput = { statePath: effective.statePath, local: local !== undefined, ...(local?.workspaceFile ? { workspaceFile: local.workspaceFile } : {}) }
  return { bridge, note }
}
