import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { parseSandboxArgs, sandboxCommand } from '../../src/sandbox/command.js'
import { startSandbox } from '../../src/sandbox/index.js'

const scratch: string[] = []

afterEach(() => {
  vi.restoreAllMocks()
  process.exitCode = undefined
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-sandbox-cmd-'))
  scratch.push(dir)
  return dir
}

describe('dsh-slack sandbox', () => {
  it('listens on 4100 and keeps its workspace in .dsh-slack/sandbox-PORT.json unless told otherwise', () => {
    expect(parseSandboxArgs([])).toEqual({ port: 4100, workspace: '.dsh-slack/sandbox-4100.json', fresh: false, codeChannels: false })
    expect(parseSandboxArgs(['--code-channels'])).toMatchObject({ codeChannels: true })
    expect(parseSandboxArgs(['--port', '4200'])).toMatchObject({ port: 4200, workspace: '.dsh-slack/sandbox-4200.json' })
    expect(parseSandboxArgs(['--port=0'])).toMatchObject({ port: 0 })
    expect(parseSandboxArgs(['--workspace', 'w.json', '--fresh'])).toEqual({ port: 4100, workspace: 'w.json', fresh: true, codeChannels: false })
    expect(parseSandboxArgs(['--workspace=:memory:'])).toMatchObject({ workspace: null })
    expect(parseSandboxArgs(['--help'])).toBeNull()
  })

  it('refuses a port that is not a port and an unknown option', () => {
    expect(() => parseSandboxArgs(['--port', 'abc'])).toThrow('--port must be a port number')
    expect(() => parseSandboxArgs(['--verbose'])).toThrow('unknown option --verbose')
    expect(() => parseSandboxArgs(['--workspace'])).toThrow('--workspace needs a file name')
  })

  it('prints the usage for --help', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})

    await sandboxCommand(['--help'])

    expect(log.mock.calls[0]?.[0]).toContain('Usage: dsh-slack sandbox [--port N] [--workspace FILE] [--fresh]')
  })

  it('prints the Web API URL on one line, the tokens to use and where the workspace is kept, and stops when told', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    const stop = new AbortController()
    const file = join(scratchDir(), 'sandbox.json')

    const running = sandboxCommand(['--port', '0', '--workspace', file], stop.signal)
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(7))
    stop.abort()
    await running

    expect(lines[0]).toMatch(/^Slack API: http:\/\/127\.0\.0\.1:\d+\/api\/$/)
    expect(lines).toContain('SLACK_BOT_TOKEN=xoxb-sandbox-bot-token')
    expect(lines).toContain('SLACK_APP_TOKEN=xapp-sandbox-app-token')
    expect(lines).toContain(`Workspace: kept in ${file} (--fresh starts empty)`)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, channels: [{ id: 'C0SANDBOX01' }, { id: 'C0SANDBOX02' }] })
  })

  it('says the port is taken, and how to pick another, when another stand-in holds it', async () => {
    const other = await startSandbox()
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))

    await sandboxCommand(['--port', String(other.port), '--workspace', ':memory:']).finally(() => other.close())

    expect(process.exitCode).toBe(1)
    expect(errors).toEqual([`dsh-slack sandbox: port ${other.port} on 127.0.0.1 is already in use (is another stand-in running, from dsh-slack serve, relay or sandbox?): stop the other one, or pass --port with a free port`])
  })
})
