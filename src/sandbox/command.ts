/**
 * `dsh-slack sandbox [--port N]`: runs the local Slack stand-in alone and
 * prints where it is and which tokens to use, until Ctrl-C.
 */
import { z } from 'zod'

import { startSandbox } from './index.js'

const USAGE = `Usage: dsh-slack sandbox [--port N]

Runs the local Slack stand-in on 127.0.0.1 (memory only; nothing is kept).
Point a Slack app at it with SLACK_API_URL and the tokens it prints.

Options:
  --port N   listen on port N (default: a free port)
  --help     show this help`

const Port = z.coerce.number().int().min(0).max(65535)

/** Parses `argv` (the words after `sandbox`); `null` asks for the usage text. */
export function parseSandboxArgs(argv: string[]): { port: number } | null {
  let port = 0
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') return null
    const value = arg === '--port' ? argv[++i] : arg.startsWith('--port=') ? arg.slice('--port='.length) : undefined
    if (value === undefined) throw new Error(arg === '--port' ? '--port needs a number' : `unknown option ${arg}`)
    const parsed = Port.safeParse(value)
    if (!parsed.success) throw new Error(`--port must be a port number (0-65535), got ${value}`)
    port = parsed.data
  }
  return { port }
}

/**
 * Runs the stand-in until Ctrl-C (SIGINT/SIGTERM) or until `stop` aborts
 * (for tests and embedding).
 */
export async function sandboxCommand(argv: string[], stop?: AbortSignal): Promise<void> {
  let args: { port: number } | null
  try {
    args = parseSandboxArgs(argv)
  } catch (error) {
    console.error(`dsh-slack sandbox: ${(error as Error).message}\n\n${USAGE}`)
    process.exitCode = 2
    return
  }
  if (args === null) {
    console.log(USAGE)
    return
  }
  const slack = await startSandbox({ port: args.port })
  console.log(`Slack API: ${slack.apiUrl}`)
  console.log(`Page: ${slack.webUrl} (the workspace as Slack would show it)`)
  console.log(`SLACK_API_URL=${slack.apiUrl}`)
  console.log(`SLACK_BOT_TOKEN=${slack.botToken}`)
  console.log(`SLACK_APP_TOKEN=${slack.appToken}`)
  console.log(`SLACK_SIGNING_SECRET=${slack.signingSecret}`)
  console.log(`SLACK_CHANNEL=${slack.defaultChannel}`)
  await new Promise<void>((resolve) => {
    const finish = (): void => {
      process.off('SIGINT', finish)
      process.off('SIGTERM', finish)
      stop?.removeEventListener('abort', finish)
      void slack.close().then(resolve)
    }
    process.on('SIGINT', finish)
    process.on('SIGTERM', finish)
    if (stop?.aborted) finish()
    else stop?.addEventListener('abort', finish)
  })
}
