/**
 * `dsh-slack sandbox [--port N] [--workspace FILE] [--fresh]`: runs the local
 * Slack stand-in alone and prints where it is and which tokens to use, until
 * Ctrl-C.
 */
import { dirname, join } from 'node:path'
import { z } from 'zod'

import { DEFAULT_SANDBOX_PORT, DEFAULT_STATE_PATH } from '../config/config.js'

import { sandboxEnvOptions, withCodeChannelScopes } from './env-options.js'
import { SandboxError } from './errors.js'
import { startSandbox } from './index.js'

/** The port `dsh-slack serve` also gives its stand-in by default (DSH_SLACK_SANDBOX_PORT), so the page's address is the same every run. */
const SANDBOX_DEFAULT_PORT = DEFAULT_SANDBOX_PORT
/** Where `dsh-slack serve` also keeps the workspace of its stand-in on `port` by default (src/service/stand-in-files.ts: beside the state file). */
function defaultWorkspace(port: number): string {
  return join(dirname(DEFAULT_STATE_PATH), `sandbox-${port}.json`)
}

const USAGE = `Usage: dsh-slack sandbox [--port N] [--workspace FILE] [--fresh] [--code-channels]

Runs the local Slack stand-in on 127.0.0.1. Point a Slack app at it with
SLACK_API_URL and the tokens it prints; open the page it prints to play
Slack. It keeps its workspace (channels, messages, threads, files, open
forms) in a file between runs.

Options:
  --port N          listen on port N (default ${SANDBOX_DEFAULT_PORT}; 0: any free port)
  --workspace FILE  keep the workspace in FILE (default ${join(dirname(DEFAULT_STATE_PATH), 'sandbox-N.json')} on port N);
                    :memory: keeps nothing
  --fresh           start with an empty workspace, replacing the kept one
  --code-channels   grant the code-channel scopes (code_channels:manage, canvases:write),
                    as an app installed from today's manifest.yml has them
  --help            show this help

Environment:
  SANDBOX_TIER3_PER_MINUTE  chat.update calls a minute it takes, a burst of as many
                            (default 50, Slack's documented Tier 3; Slack says "50+")
  SANDBOX_CODE_CHANNELS     on: as --code-channels (also for dsh-slack serve's own stand-in)`

const Port = z.coerce.number().int().min(0).max(65535)

export interface SandboxArgs {
  port: number
  /** The workspace file, or `null` for memory only. */
  workspace: string | null
  fresh: boolean
  /** Grant the code-channel scopes (the stand-in starts without them). */
  codeChannels: boolean
}

/** Parses `argv` (the words after `sandbox`); `null` asks for the usage text. */
export function parseSandboxArgs(argv: string[]): SandboxArgs | null {
  const args: SandboxArgs = { port: SANDBOX_DEFAULT_PORT, workspace: null, fresh: false, codeChannels: false }
  let workspace: string | null | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') return null
    if (arg === '--fresh') {
      args.fresh = true
      continue
    }
    if (arg === '--code-channels') {
      args.codeChannels = true
      continue
    }
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    if (name !== '--port' && name !== '--workspace') throw new Error(`unknown option ${arg}`)
    const value = inline ?? argv[++i]
    if (value === undefined || value === '') throw new Error(name === '--port' ? '--port needs a number' : '--workspace needs a file name (or :memory:)')
    if (name === '--workspace') {
      workspace = value === ':memory:' ? null : value
      continue
    }
    const parsed = Port.safeParse(value)
    if (!parsed.success) throw new Error(`--port must be a port number (0-65535), got ${value}`)
    args.port = parsed.data
  }
  args.workspace = workspace === undefined ? defaultWorkspace(args.port) : workspace
  return args
}

/**
 * Runs the stand-in until Ctrl-C (SIGINT/SIGTERM) or until `stop` aborts
 * (for tests and embedding).
 */
export async function sandboxCommand(argv: string[], stop?: AbortSignal): Promise<void> {
  let args: SandboxArgs | null
  let fromEnv: ReturnType<typeof sandboxEnvOptions>
  try {
    args = parseSandboxArgs(argv)
    fromEnv = sandboxEnvOptions(process.env)
  } catch (error) {
    console.error(`dsh-slack sandbox: ${(error as Error).message}\n\n${USAGE}`)
    process.exitCode = 2
    return
  }
  if (args === null) {
    console.log(USAGE)
    return
  }
  let slack: Awaited<ReturnType<typeof startSandbox>>
  try {
    slack = await startSandbox({ port: args.port, ...(args.workspace ? { workspaceFile: args.workspace } : {}), fresh: args.fresh, ...fromEnv, ...(args.codeChannels ? { scopes: withCodeChannelScopes() } : {}) })
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error
    const fix = error.code === 'PORT_TAKEN' ? ': stop the other one, or pass --port with a free port' : ''
    console.error(`dsh-slack sandbox: ${error.message}${fix}`)
    process.exitCode = 1
    return
  }
  console.log(`Slack API: ${slack.apiUrl}`)
  console.log(`Page: ${slack.webUrl} (the workspace as Slack would show it)`)
  console.log(`SLACK_API_URL=${slack.apiUrl}`)
  console.log(`SLACK_BOT_TOKEN=${slack.botToken}`)
  console.log(`SLACK_APP_TOKEN=${slack.appToken}`)
  console.log(`SLACK_SIGNING_SECRET=${slack.signingSecret}`)
  console.log(`SLACK_CHANNEL=${slack.defaultChannel}`)
  if (args.codeChannels || fromEnv.scopes) console.log('Code channels: on (the bot token has code_channels:manage and canvases:write)')
  console.log(slack.workspaceFile ? `Workspace: kept in ${slack.workspaceFile} (--fresh starts empty)` : 'Workspace: in memory only (nothing is kept)')
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
