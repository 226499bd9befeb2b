import { configFromEnv, DEFAULT_SANDBOX_PORT } from '../config/config.js'
import { loggerFor } from '../log/logger-for.js'
import { startService, type ServiceDeps } from '../service/start-service.js'
import { stopNote } from '../service/stop-note.js'
import type { CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'

export const SERVE_HELP = `Usage: dsh-slack serve [--fresh]

Runs the service: one Slack bridge for a whole team, reached over the HTTP
API (POST /v1/asks, GET/DELETE /v1/asks/:id, GET /healthz) or
\`dsh-slack ask --url\`. Configured by environment variables (and .env):
SLACK_BOT_TOKEN, SLACK_APP_TOKEN or SLACK_SIGNING_SECRET, SLACK_CHANNEL,
HOST, PORT, DSH_SLACK_API_KEY, DSH_SLACK_STATE, DSH_HOST_URL, …

Open questions are kept in DSH_SLACK_STATE (default .dsh-slack/state.sqlite):
stopping (Ctrl-C, SIGTERM) or restarting the service leaves them open, and a
click after the restart still answers them. With DSH_SLACK_STATE=:memory:
nothing is kept: open questions are withdrawn when the service stops.
Several processes on one Slack app share DSH_SLACK_STATE=postgres://…, so
any of them can take any click.

Without SLACK_BOT_TOKEN it starts a local Slack stand-in on
127.0.0.1:${DEFAULT_SANDBOX_PORT} (DSH_SLACK_SANDBOX_PORT) and prints the address of
its web page, where you can answer the questions yourself. The stand-in keeps
its workspace (channels, messages, threads, files, open forms) in
sandbox-PORT.json and its questions in sandbox-PORT.sqlite (PORT: the
stand-in's), beside DSH_SLACK_STATE (default .dsh-slack/), so a restart finds
them where they were, at the same address: an open page goes on working. A
DSH_SLACK_STATE database is not used then; to try several instances on one,
run \`dsh-slack sandbox\` and give each instance the SLACK_* lines it prints.

Options:
  --fresh      with the stand-in: start with an empty workspace and no questions
  -h, --help   show this help`

/** `dsh-slack serve`: runs until SIGINT or SIGTERM, then stops cleanly and exits 0. */
export async function serveCommand(argv: string[], io: CliIo, deps: () => Promise<ServiceDeps>): Promise<number> {
  const { values } = parseCommandArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' }, fresh: { type: 'boolean' } } })
  if (values.help) {
    io.stdout.write(`${SERVE_HELP}\n`)
    return EXIT.ok
  }
  const config = configFromEnv(io.env)
  const logger = loggerFor(config.logFormat, { debug: io.env.DSH_SLACK_DEBUG === '1', batched: true })

  // Subscribe before starting, so a signal during start-up still stops cleanly.
  let signalled: ((signal: string) => void) | undefined
  const stopRequested = new Promise<string>((resolve) => (signalled = resolve))
  const unsubscribe = io.onSignal((signal) => signalled!(signal))
  try {
    const service = await startService(config, await deps(), logger, { fresh: values.fresh === true })
    if (service.local) {
      io.stdout.write(`Open ${service.local.webUrl ?? service.local.apiUrl} to try it (local Slack stand-in; set SLACK_BOT_TOKEN to use Slack)\n`)
      if (service.local.workspaceFile) io.stdout.write(`Kept between runs in ${service.local.workspaceFile} and ${service.statePath} (serve --fresh starts empty)\n`)
    }
    io.stdout.write(`API: ${service.url}/v1/asks\n`)
    const signal = await stopRequested
    const note = stopNote({ statePath: service.statePath, local: service.local !== undefined, ...(service.local?.workspaceFile ? { workspaceFile: service.local.workspaceFile } : {}) })
    logger.info(`${signal}: stopping (${note})`)
    await service.stop()
    logger.info('stopped')
    return EXIT.ok
  } finally {
    unsubscribe()
  }
}
