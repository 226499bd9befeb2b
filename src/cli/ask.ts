import { configFromEnv, valueChecks } from '../config/config.js'
import { ConfigError } from '../config/config-error.js'
import { parseDuration, timeoutProblem } from '../config/duration.js'
import { consoleLogger } from '../log/logger.js'
import { bridgeOptionsFromConfig } from '../service/bridge-options.js'
import type { CreateBridge } from '../service/bridge-factory.js'
import { askInProcess } from './ask-in-process.js'
import { exitCodeOf, type AskOutcome } from './ask-outcome.js'
import { askViaService } from './ask-via-service.js'
import { requestProblem } from './check-request.js'
import type { CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'
import { readRequest } from './read-request.js'
import { UsageError } from './usage-error.js'

/** A request using every field, shown by `--help` (a test checks that it is valid). */
export const ASK_EXAMPLE_REQUEST = `{
  "questions": [
    {
      "id": "pm",
      "header": "Tooling",
      "question": "Which package manager?",
      "detail": "The repo has **no lockfile** yet.",
      "options": [
        { "label": "pnpm (Recommended)", "description": "fast, strict" },
        { "label": "npm" }
      ],
      "multiSelect": false
    },
    {
      "id": "plan-review",
      "header": "Plan review",
      "question": "Approve this plan?",
      "detail": "# Plan\\n1. Add the column\\n2. Backfill it",
      "options": [{ "label": "Approve" }, { "label": "Keep planning" }],
      "intent": { "kind": "plan-review", "approve": "Approve" }
    }
  ],
  "channel": "C0123ABCDEF",
  "agent": { "id": "session-1", "title": "Refactor" },
  "timeoutMs": 600000
}`

/** The answer `ask` prints for that request, when pnpm is picked and changes are requested. */
export const ASK_EXAMPLE_ANSWER = '{"answers":[{"id":"pm","selected":["pnpm (Recommended)"]},{"id":"plan-review","selected":[],"custom":"Backfill in batches"}]}'

export const ASK_HELP = `Usage: dsh-slack ask [FILE|-] [options]

Asks the questions in FILE (or stdin, for "-" or no FILE) in Slack, waits for
the answer and prints it as JSON on stdout. The request is the HTTP API's
POST /v1/asks body. Only "questions", and each question's "id" and
"question", are required; a field it does not know is refused by name
(exit 2). Every field: docs/request-format.md; JSON Schema: GET /v1/openapi.json.

Options:
  --url URL        ask through a running \`dsh-slack serve\` (e.g. http://127.0.0.1:3000);
                   without it, this process connects to Slack with the env config
  --channel C      channel id (C…/G…) or user id (U…/W…, a DM) for this question
  --timeout D      expire the question after D (e.g. 90s, 10m, 2h)
  --api-key K      the service's DSH_SLACK_API_KEY (default: that variable)
  -h, --help       show this help

Example request, every field used:
${ASK_EXAMPLE_REQUEST.replace(/^/gm, '  ')}

Answer printed (one item per question, in order; "custom" is a typed answer):
  ${ASK_EXAMPLE_ANSWER}

Exit codes: 0 answered, 2 invalid request, 3 dismissed in Slack, 4 expired,
130 interrupted (Ctrl-C withdraws the question), 1 anything else.`

/** `dsh-slack ask`. `createBridge` is only called without `--url`. */
export async function askCommand(argv: string[], io: CliIo, deps: { createBridge: () => Promise<CreateBridge> }): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      channel: { type: 'string' },
      timeout: { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  })
  if (values.help) {
    io.stdout.write(`${ASK_HELP}\n`)
    return EXIT.ok
  }
  if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}`)
  const channelProblem = values.channel === undefined ? null : valueChecks.channel(values.channel)
  if (channelProblem) throw new UsageError(`--channel: ${channelProblem}`)
  let timeoutMs: number | undefined
  if (values.timeout !== undefined) {
    const ms = parseDuration(values.timeout)
    if (ms === null || ms <= 0) throw new UsageError(`--timeout: ${JSON.stringify(values.timeout)} is not a duration (expected e.g. 90s, 10m or 2h)`)
    const problem = timeoutProblem(ms)
    if (problem) throw new UsageError(`--timeout: ${JSON.stringify(values.timeout)} ${problem}`)
    timeoutMs = ms
  }
  if (values.url !== undefined && !/^https?:\/\//.test(values.url)) throw new UsageError(`--url: ${JSON.stringify(values.url)} is not an http(s) URL (expected e.g. http://127.0.0.1:3000)`)

  const request = await readRequest(positionals[0], io.stdin)
  const problem = requestProblem(request)
  if (problem) {
    io.stderr.write(`dsh-slack ask: ${problem.code}: ${problem.message}\n`)
    return EXIT.invalid
  }
  const interrupt = new AbortController()
  const stopListening = io.onSignal(() => {
    io.stderr.write('interrupted: withdrawing the question…\n')
    interrupt.abort()
  })
  const log = (line: string) => io.stderr.write(`${line}\n`)
  let outcome: AskOutcome
  try {
    if (values.url !== undefined) {
      outcome = await askViaService({
        url: values.url,
        request,
        interrupt: interrupt.signal,
        log,
        ...(values['api-key'] ?? io.env.DSH_SLACK_API_KEY ? { apiKey: values['api-key'] ?? io.env.DSH_SLACK_API_KEY } : {}),
        ...(values.channel !== undefined ? { channel: values.channel } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      })
    } else {
      outcome = await askHere(request, { channel: values.channel, timeoutMs }, io, interrupt.signal, await deps.createBridge())
    }
  } finally {
    stopListening()
  }

  if (outcome.kind === 'answered') {
    io.stdout.write(`${JSON.stringify(outcome.answer)}\n`)
  } else {
    io.stderr.write(`dsh-slack ask: ${outcome.code}: ${outcome.message}\n`)
  }
  return exitCodeOf(outcome, interrupt.signal.aborted)
}

/** In-process: a library-owned bridge for this one question, stopped afterwards. */
async function askHere(
  request: Record<string, unknown>,
  flags: { channel: string | undefined; timeoutMs: number | undefined },
  io: CliIo,
  interrupt: AbortSignal,
  createBridge: CreateBridge,
): Promise<AskOutcome> {
  const config = configFromEnv(io.env)
  const { channel, timeoutMs, ...questionRequest } = request
  if (!config.botToken) {
    throw new ConfigError('SLACK_BOT_TOKEN', 'is not set: without --url, `dsh-slack ask` talks to Slack itself (or pass --url of a running `dsh-slack serve`)')
  }
  const chosenChannel = flags.channel ?? (typeof channel === 'string' ? channel : undefined) ?? config.channel
  if (!chosenChannel) throw new ConfigError('SLACK_CHANNEL', 'is not set: pass --channel C0123ABCDEF or set SLACK_CHANNEL to a channel or user id')
  const problem = valueChecks.channel(chosenChannel)
  if (problem) throw new UsageError(`channel: ${problem}`)
  const chosenTimeout = flags.timeoutMs ?? (typeof timeoutMs === 'number' ? timeoutMs : undefined) ?? config.defaultTimeoutMs
  const options = bridgeOptionsFromConfig({ ...config, botToken: config.botToken, channel: chosenChannel }, { owner: 'library', logger: consoleLogger() })
  if (chosenTimeout !== undefined) options.timeout = chosenTimeout
  // Nothing to listen for: an in-process ask in HTTP mode still needs Slack
  // to reach this machine, so Bolt listens on the configured port.
  if (!config.appToken) options.listen = { host: config.host, port: config.port }
  const bridge = await createBridge(options)
  try {
    return await askInProcess(bridge, questionRequest, interrupt)
  } finally {
    await bridge.stop({ withdrawOpen: true })
  }
}
