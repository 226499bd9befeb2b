import { scrubSecrets } from '../log/scrub.js'
import { configFromEnv } from '../config/config.js'
import type { CliIo } from './cli-io.js'
import type { DoctorSlack } from './doctor/doctor-port.js'
import { checkHarnessProfile } from './doctor/harness-checks.js'
import { runDoctorChecks, type CheckResult } from './doctor/run-checks.js'
import { webApiDoctorPort } from './doctor/web-api-doctor-port.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'

export const DOCTOR_HELP = `Usage: dsh-slack doctor [--harness PROFILE]

Checks the configuration (environment variables and .env) against Slack's
Web API (SLACK_API_URL, default Slack's own) and says exactly what to fix:
  token        auth.test: the bot token is valid; the bot's and team's names
  scopes       the token has every bot scope manifest.yml lists
  channel      SLACK_CHANNEL exists and the bot can post there (member, or
               chat:write.public), or a DM with that user opens
  Socket Mode  SLACK_APP_TOKEN opens a connection (or, in HTTP mode, the
               signing secret is set)
With --harness, checks a harness profile first (a folder such as
$DSH_HOME/profiles/headless, or its cordis.patch.yml): the patch is a list
of loader patches, dsh-slack's settings there (or in the environment) are
valid, a headless profile has the ask tool, and this Node can run dsh-slack
as the harness will (run it with the harness's Node). The Slack checks then
use the plugin's settings, and only what concerns the plugin is checked.
Exit code 0 when every check passes, 1 otherwise, 2 for a malformed setting.
A line with ! is an optional feature that is off (thread replies, code
channels): everything else works, and it does not fail the run.

Options:
  --harness PROFILE   check a harness profile's dsh-slack set-up too
  -h, --help          show this help`

export function formatCheck(result: CheckResult): string {
  const head = `${result.ok ? '✓' : result.optional ? '!' : '✗'} ${result.name}: ${result.detail}`
  return result.fix ? `${head}\n    fix: ${result.fix}` : head
}

/** `dsh-slack doctor`. `port` replaces the Web API in tests. */
export async function doctorCommand(argv: string[], io: CliIo, port?: (config: { botToken: string; appToken?: string; slackApiUrl?: string }) => DoctorSlack): Promise<number> {
  const { values } = parseCommandArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' }, harness: { type: 'string' } } })
  if (values.help) {
    io.stdout.write(`${DOCTOR_HELP}\n`)
    return EXIT.ok
  }
  const harness = values.harness === undefined ? undefined : checkHarnessProfile(values.harness, io.env)
  // With --harness the Slack checks follow the plugin's own settings only, as
  // the harness will use them (they came from the environment already when its entry has none).
  // The rules across variables become failed checks below, so one missing setting does not hide the rest.
  const config = configFromEnv(harness ? {} : io.env, { checkCombination: false })
  if (harness) {
    for (const result of harness.results) io.stdout.write(`${scrubSecrets(formatCheck(result))}\n`)
    if (harness.viaService) {
      io.stdout.write(`Slack is checked where the service runs: dsh-slack doctor there (the plugin asks through ${harness.viaService}).\n`)
      return reportTotal(harness.results, io)
    }
    if (!harness.slack) {
      io.stdout.write('The Slack checks run once the plugin config is fixed.\n')
      return reportTotal(harness.results, io)
    }
    Object.assign(config, harness.slack)
  }
  const slack = config.botToken
    ? (port ?? webApiDoctorPort)({
        botToken: config.botToken,
        ...(config.appToken ? { appToken: config.appToken } : {}),
        ...(config.slackApiUrl ? { slackApiUrl: config.slackApiUrl } : {}),
      })
    : undefined
  // The HTTP API is the service's: the plugin listens on none of it.
  const slackResults = await runDoctorChecks(config, slack, { httpApi: !harness, ...(harness?.codeChannelsOffBy ? { codeChannelsOffBy: harness.codeChannelsOffBy } : {}) })
  // A URL in a check (SLACK_API_URL, DSH_SLACK_STATE) is shown without its password.
  for (const result of slackResults) io.stdout.write(`${scrubSecrets(formatCheck(result))}\n`)
  return reportTotal([...(harness?.results ?? []), ...slackResults], io)
}

function reportTotal(results: CheckResult[], io: CliIo): number {
  const failed = results.filter((result) => !result.ok && !result.optional).length
  const off = results.filter((result) => !result.ok && result.optional).length
  const offNote = off === 0 ? '' : ` (${off} optional feature${off === 1 ? ' is' : 's are'} off: see the ! line${off === 1 ? '' : 's'})`
  io.stdout.write(failed === 0 ? `All checks passed${offNote}.\n` : `${failed} check${failed === 1 ? '' : 's'} failed${offNote}.\n`)
  return failed === 0 ? EXIT.ok : EXIT.failure
}
