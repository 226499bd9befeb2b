import { afterEach, describe, expect, it, vi } from 'vitest'

import { parseSandboxArgs, sandboxCommand } from '../../src/sandbox/command.js'

describe('dsh-slack sandbox', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    process.exitCode = undefined
  })

  it('reads --port N and --port=N, and defaults to a free port', () => {
    expect(parseSandboxArgs([])).toEqual({ port: 0 })
    expect(parseSandboxArgs(['--port', '4100'])).toEqual({ port: 4100 })
    expect(parseSandboxArgs(['--port=4101'])).toEqual({ port: 4101 })
    expect(parseSandboxArgs(['--help'])).toBeNull()
  })

  it('refuses a port that is not a port and an unknown option', () => {
    expect(() => parseSandboxArgs(['--port', 'abc'])).toThrow('--port must be a port number')
    expect(() => parseSandboxArgs(['--verbose'])).toThrow('unknown option --verbose')
  })

  it('prints the usage for --help', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})

    await sandboxCommand(['--help'])

    expect(log.mock.calls[0]?.[0]).toContain('Usage: dsh-slack sandbox [--port N]')
  })

  it('prints the Web API URL on one line and the tokens to use, and stops when told', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    const stop = new AbortController()

    const running = sandboxCommand([], stop.signal)
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(5))
    stop.abort()
    await running

    expect(lines[0]).toMatch(/^Slack API: http:\/\/127\.0\.0\.1:\d+\/api\/$/)
    expect(lines).toContain('SLACK_BOT_TOKEN=xoxb-sandbox-bot-token')
    expect(lines).toContain('SLACK_APP_TOKEN=xapp-sandbox-app-token')
  })
})
