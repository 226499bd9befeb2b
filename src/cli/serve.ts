import { configFromEnv } from '../config/config.js'
import { consoleLogger } from '../log/logger.js'
import { startService, type ServiceDeps } from '../service/start-service.js'
import type { CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'

export const SERVE_HELP = `Usage: dsh-slack serve

Runs the service: one Slack bridge for a whole team, reached over the HTTP
API (POST /v1/asks, GET/DELETE /v1/asks/:id, GET /healthz) or
\`dsh-slack ask --url\`. Configured by environment variables (and .env):
SLACK_BOT_TOKEN, SLACK_APP_TOKEN or SLACK_SIGNING_SECRET, SLACK_CHANNEL,
HOST, PORT, DSH_SLACK_API_KEY, DSH_SLACK_STATE, DSH_HOST_URL, …

Without SLACK_BOT_TOKEN it starts a local Slack stand-in and prints the
address of its web page, where you can answer the questions yourself.

Open questions are kept in DSH_SLACK_STATE (default .dsh-slack/state.sqlite):
stopping (Ctrl-C, SIGTERM) or restarting the service leaves them open, and a
click after the restart still answers them.

Options:
  -h, --help   show this help`

/** `dsh-slack serve`: runs until SIGINT or SIGTERM, then stops cleanly and exits 0. */
export async function serveCommand(argv: string[], io: CliIo, deps: () => Promise<ServiceDeps>): Promise<number> {
  const { values } = parseCommandArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } })
  if (values.help) {
    io.stdout.write(`${SERVE_HELP}\n`)
    return EXIT.ok
  }
  const config = configFromEnv(io.env)
  const logger = consoleLogger({ debug: io.env.DSH_SLACK_DEBUG === '1' })

  // Subscribe before starting, so a signal during start-up still stops cleanly.
  let signalled: (() => void) | undefined
  const stopRequested = new Promise<void>((resolve) => (signalled = resolve))
  const unsubscribe = io.onSignal((signal) => {
    logger.info(`${signal}: stopping (open questions stay open)`)
    signalled!()
  })
  try {
    const service = await startService(config, await deps(), logger)
    if (service.local) {
      io.stdout.write(`Open ${service.local.webUrl ?? service.local.apiUrl} to try it (local Slack stand-in; set SLACK_BOT_TOKEN to use Slack)\n`)
    }
    io.stdout.write(`API: ${service.url}/v1/asks\n`)
    await stopRequested
    await service.stop()
    logger.info('stopped')
    return EXIT.ok
  } finally {
    unsubscribe()
  }
}
