import { ConfigError } from '../config/config-error.js'
import { assertSupportedNode } from '../config/node-range.js'
import { scrubSecrets } from '../log/scrub.js'
import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import { askCommand } from './ask.js'
import type { CliIo, StopSignal } from './cli-io.js'
import { doctorCommand } from './doctor.js'
import { EXIT } from './exit-codes.js'
import { loadEnv } from '../config/load-env.js'
import { serveCommand } from './serve.js'
import { serviceDeps } from './service-deps.js'
import { UsageError } from './usage-error.js'
import { packageVersion } from './version.js'

export const MAIN_HELP = `Usage: dsh-slack <command> [options]

Agents ask, people answer in Slack.

Commands:
  serve            run the service: the HTTP API for all agents (npm start);
                   without SLACK_BOT_TOKEN, against a local Slack stand-in
  ask [FILE|-]     ask the questions in FILE (or stdin) and print the answer JSON
  relay            answer a harness web host's questions and approvals in Slack (DSH_HOST_URL)
  sandbox          run the local Slack stand-in alone
  doctor           check the configuration against Slack and say what to fix
  audit            export every ask's events (--since 7d, --format jsonl|csv)
  policy           check a policy file, or explain which rule an ask falls under

Options:
  -h, --help       show this help (also: dsh-slack <command> --help)
  -v, --version    print the version

Configuration comes from environment variables and a .env file in the
working directory (see .env.example).`

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.stdout.write(`${MAIN_HELP}\n`)
        return command === undefined ? EXIT.invalid : EXIT.ok
      case '-v':
      case '--version':
        io.stdout.write(`${packageVersion()}\n`)
        return EXIT.ok
    }
    // Past help and version, every command needs a Node in the range: refused here, in one line.
    assertSupportedNode()
    switch (command) {
      case 'serve':
        return await serveCommand(rest, io, serviceDeps)
      case 'ask':
        return await askCommand(rest, io, { createBridge: loadCreateSlackBridge })
      case 'doctor':
        return await doctorCommand(rest, io)
      case 'audit':
        return await (await import('./audit.js')).auditCommand(rest, io)
      case 'policy':
        return await (await import('./policy.js')).policyCommand(rest, io)
      // These two live with their features and are loaded only when run.
      case 'relay':
        return await (await import('../relay/command.js')).relayCommand(rest)
      case 'sandbox':
        await (await import('../sandbox/command.js')).sandboxCommand(rest)
        // It reports a failure the Node way, through process.exitCode.
        return Number(process.exitCode ?? EXIT.ok)
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}; the commands are serve, ask, relay, sandbox, doctor, audit, policy`)
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`dsh-slack: ${scrubSecrets(error.message)}\n`)
      return EXIT.invalid
    }
    if (error instanceof UsageError) {
      const where = command && ['serve', 'ask', 'doctor', 'relay', 'sandbox', 'audit', 'policy'].includes(command) ? ` ${command}` : ''
      io.stderr.write(`dsh-slack${where}: ${error.message} (see dsh-slack${where} --help)\n`)
      return EXIT.invalid
    }
    io.stderr.write(`dsh-slack${command ? ` ${command}` : ''}: ${scrubSecrets(error instanceof Error ? error.message : String(error))}\n`)
    if (io.env.DSH_SLACK_DEBUG === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`)
    return EXIT.failure
  }
}

/** The real process's streams, environment (with .env) and signals. */
export function processIo(): CliIo {
  return {
    env: loadEnv(),
    stdout: process.stdout,
    // Whatever a command writes to stderr (errors, logs) loses URL passwords and tokens on the way.
    stderr: { write: (text: string) => process.stderr.write(scrubSecrets(text)) },
    stdin: process.stdin,
    onSignal(listener) {
      const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal: StopSignal) => {
        const handler = () => listener(signal)
        process.on(signal, handler)
        return () => process.off(signal, handler)
      })
      return () => handlers.forEach((off) => off())
    },
  }
}
