import { existsSync, readdirSync } from 'node:fs'
import { dirname } from 'node:path'

import { configFromEnv } from '../config/config.js'
import { servedStatePath } from '../service/stand-in-files.js'
import { openStore } from '../store/open-store.js'
import { describePostgresUrl, isPostgresUrl } from '../store/postgres/postgres-ask-store.js'
import type { AskEvent } from '../store/team-records.js'
import { parseSince } from '../http/audit-handlers.js'
import type { CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'
import { UsageError } from './usage-error.js'

export const AUDIT_HELP = `Usage: dsh-slack audit [--since 7d] [--format jsonl|csv]

Exports the audit trail of every ask from the state the service uses, found
as \`dsh-slack serve\` finds it: DSH_SLACK_STATE (the SQLite file or the
postgres:// database) with SLACK_BOT_TOKEN set; without it, the local
stand-in's own file (sandbox-PORT.sqlite beside DSH_SLACK_STATE, PORT being
DSH_SLACK_SANDBOX_PORT). It never creates a state: with none there, it says
where it looked. The trail: posted (where),
each approval, reminder and escalation, the answer or decision (who, what,
when), withdrawal, expiry, and message updates that failed. Question text and
answers are in this output: keep it where the questions may be read.

Options:
  --since AGE|DATE    only events since then: an age like 7d or 12h, or an
                      ISO date (default 7d)
  --format jsonl|csv  one JSON object per line (default), or CSV with a header
  -h, --help          show this help`

const PAGE = 1000
const CSV_COLUMNS = ['seq', 'at', 'askId', 'type', 'byId', 'byName', 'detail', 'rule', 'key'] as const

/**
 * One CSV cell. A cell beginning with `=`, `+`, `-`, `@`, a tab or a CR is
 * a formula to a spreadsheet (`=HYPERLINK(…)` in a person's Slack name, a
 * rule named `-x`): it gets a leading `'`, which spreadsheets show as text
 * and never run (OWASP's advice on CSV injection). The JSON `detail` starts
 * with `{` and is never touched.
 */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\n\r]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert
}

function csvLine(event: AskEvent): string {
  const cells = [String(event.seq), new Date(event.at).toISOString(), event.askId, event.type, event.by?.id ?? '', event.by?.name ?? '', event.detail ? JSON.stringify(event.detail) : '', event.rule ?? '', event.key ?? '']
  return cells.map(csvCell).join(',')
}

/**
 * Where the stand-in's trail may be instead: it keeps one file per port, so
 * a service run with another DSH_SLACK_SANDBOX_PORT (ports moved off 4100)
 * left its asks in a file this run did not look at.
 */
function standInHint(looked: string, port: number): string {
  const others = existsSync(dirname(looked))
    ? readdirSync(dirname(looked)).flatMap((file) => /^sandbox-(\d+)\.sqlite$/.exec(file)?.[1] ?? []).filter((found) => Number(found) !== port)
    : []
  const found = others.length > 0 ? ` (beside it: the stand-in's asks of port${others.length === 1 ? '' : 's'} ${others.join(', ')})` : ''
  return `The stand-in keeps one file per port: run it with the DSH_SLACK_SANDBOX_PORT (this looked for ${port}) and DSH_SLACK_STATE the service ran with${found}; for the asks kept while connected to Slack, with its SLACK_BOT_TOKEN`
}

/** `dsh-slack audit`: every event since `--since`, oldest first, in pages so a long trail streams. */
export async function auditCommand(argv: string[], io: CliIo, now: () => number = Date.now): Promise<number> {
  const { values } = parseCommandArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' }, since: { type: 'string' }, format: { type: 'string' } },
  })
  if (values.help) {
    io.stdout.write(`${AUDIT_HELP}\n`)
    return EXIT.ok
  }
  const format = values.format ?? 'jsonl'
  if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format ${JSON.stringify(format)} is not jsonl or csv`)
  const since = parseSince(values.since ?? '7d', now())
  if (since === null) throw new UsageError(`--since ${JSON.stringify(values.since)} is not an age like 7d or an ISO date like 2026-01-31`)
  const config = configFromEnv(io.env, { checkCombination: false })
  const { path, standIn } = servedStatePath(config)
  const where = `${isPostgresUrl(path) ? describePostgresUrl(path) : path}${standIn ? ' (the local stand-in\'s asks, as SLACK_BOT_TOKEN is not set)' : ''}`
  if (path === ':memory:') {
    io.stderr.write('dsh-slack audit: DSH_SLACK_STATE is :memory:, which keeps nothing: there is no trail to export\n')
    return EXIT.ok
  }
  if (!isPostgresUrl(path) && !existsSync(path)) {
    io.stderr.write(`dsh-slack audit: no state at ${where}, so nothing to export. ${standIn ? standInHint(path, config.sandboxPort) : 'Run it where the service runs, with its DSH_SLACK_STATE'}\n`)
    return EXIT.ok
  }
  io.stderr.write(`dsh-slack audit: reading ${where}\n`)
  const store = await openStore(path)
  try {
    if (format === 'csv') io.stdout.write(`${CSV_COLUMNS.join(',')}\n`)
    let afterSeq = 0
    for (;;) {
      const events = await store.listEvents({ since, afterSeq, limit: PAGE })
      for (const event of events) io.stdout.write(format === 'csv' ? `${csvLine(event)}\n` : `${JSON.stringify({ ...event, at: new Date(event.at).toISOString() })}\n`)
      if (events.length < PAGE) break
      afterSeq = events.at(-1)!.seq
    }
  } finally {
    await store.close()
  }
  return EXIT.ok
}
