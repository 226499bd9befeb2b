import { scrubSecrets } from '../log/scrub.js'
import { configFromEnv } from '../config/config.js'
import type { CliIo } from './cli-io.js'
import type { DoctorSlack } from './doctor/doctor-port.js'
import { runDoctorChecks, type CheckResult } from './doctor/run-checks.js'
import { webApiDoctorPort } from './doctor/web-api-doctor-port.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'

export const DOCTOR_HELP = `Usage: dsh-slack doctor

Checks the configuration (environment variables and .env) against Slack's
Web API (SLACK_API_URL, default Slack's own) and says exactly what to fix:
  token        auth.test: the bot token is valid; the bot's and team's names
  scopes       the token has every bot scope manifest.yml lists
  channel      SLACK_CHANNEL exists and the bot can post there (member, or
               chat:write.public), or a DM with that user opens
  Socket Mode  SLACK_APP_TOKEN opens a connection (or, in HTTP mode, the
               signing secret is set)
Exit code 0 when every check passes, 1 otherwise, 2 for a malformed setting.

Options:
  -h, --help   show this help`

export function formatCheck(result: CheckResult): string {
  const head = `${result.ok ? '✓' : '✗'} ${result.name}: ${result.detail}`
  return result.fix ? `${head}\n    fix: ${result.fix}` : head
}

/** `dsh-slack doctor`. `port` replaces the Web API in tests. */
export async function doctorCommand(argv: string[], io: CliIo, port?: (config: { botToken: string; appToken?: string; slackApiUrl?: string }) => DoctorSlack): Promise<number> {
  const { values } = parseCommandArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } })
  if (values.help) {
    io.stdout.write(`${DOCTOR_HELP}\n`)
    return EXIT.ok
  }
  // The rules across variables become failed checks below, so one missing setting does not hide the rest.
  const config = configFromEnv(io.env, { checkCombination: false })
  const slack = config.botToken
    ? (port ?? webApiDoctorPort)({
        botToken: config.botToken,
        ...(config.appToken ? { appToken: config.appToken } : {}),
        ...(config.slackApiUrl ? { slackApiUrl: config.slackApiUrl } : {}),
      })
    : undefined
  const results = await runDoctorChecks(config, slack)
  // A URL in a check (SLACK_API_URL, DSH_SLACK_STATE) is shown without its password.
  for (const result of results) io.stdout.write(`${scrubSecrets(formatCheck(result))}\n`)
  const failed = results.filter((result) => !result.ok).length
  io.stdout.write(failed === 0 ? 'All checks passed.\n' : `${failed} check${failed === 1 ? '' : 's'} failed.\n`)
  return failed === 0 ? EXIT.ok : EXIT.failure
}
