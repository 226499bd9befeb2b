import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/run-cli.js'
import { EVASIONS, OVER_MATCHES, standInPolicy } from '../policy/command/evasions.js'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-explain-commands-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

async function explain(command: unknown): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const io = { env: { DSH_SLACK_POLICY: policy }, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true }, stdin: new PassThrough(), onSignal: () => () => undefined }
  const request = file('request.json', JSON.stringify({ tool: 'bash', ...(typeof command === 'string' ? { command } : { arguments: JSON.stringify(command) }) }))
  const code = await main(['policy', 'explain', request], io as never)
  return { code, stdout }
}

const policy = file('policy.json', standInPolicy({ alice: 'U0SANDBOX01', bob: 'U0SANDBOX02', carol: 'U0SANDBOX03' }))

describe('dsh-slack policy explain on commands', () => {
  it.each(EVASIONS)('shows $name ($command) falling to the force-push rule, with the parse', async ({ command }) => {
    const { code, stdout } = await explain(command)

    expect(code).toBe(0)
    expect(stdout).toMatch(/^command: parsed into \d simple commands?$/m)
    expect(stdout).toMatch(/^  \d\. git push .*$/m)
    expect(stdout).toMatch(/^rule: force-push \(/m)
    expect(stdout).toMatch(/^approvers: U0SANDBOX01$/m)
  })

  it.each(OVER_MATCHES)('shows $name failing the allow rule $allowRule, part by part', async ({ command, allowRule, expected }) => {
    const { stdout } = await explain(command)

    expect(stdout).not.toMatch(new RegExp(`^rule: ${allowRule} `, 'm'))
    expect(stdout).toMatch(new RegExp(`^rule: ${expected} \\(the strictest of the rules its simple commands may fall under: 1 → ${allowRule}, 2 → ${expected}\\)$`, 'm'))
  })

  it('explains the parse of a compound command line by line', async () => {
    const { stdout } = await explain('git status; git push --force origin main')

    expect(stdout.split('\n').slice(1, 9)).toEqual([
      'ask: tool-approval, tool bash, command "git status; git push --force origin main", no API key',
      'command: parsed into 2 simple commands',
      '  1. git status',
      '  2. git push --force origin main',
      '  ✓ git-status: matches simple command 1',
      '  - ls: no simple command matches its command patterns',
      '  ✓ force-push: matches simple command 2',
      'rule: force-push (the strictest of the rules its simple commands may fall under: 1 → git-status, 2 → force-push)',
    ])
  })

  it('shows what it cannot know and the strictest rule it might fall under', async () => {
    const { stdout } = await explain('$GIT push origin main')

    expect(stdout).toContain('  1. unknown: its program is only known when it runs (a variable or a substitution) in "$GIT push origin main"')
    expect(stdout).toContain('  ? force-push: might match (what it runs is only known when it runs)')
    expect(stdout).toContain('rule: force-push (the strictest of the rules it might fall under: git-status, ls, force-push, defaults)')
  })

  it('reads {"command": "", "cmd": "git push --force …"} as unknown, not as an empty command', async () => {
    const { stdout } = await explain({ command: '', cmd: 'git push --force origin main' })

    expect(stdout).toContain('  1. unknown: the call\'s arguments were not seen')
    expect(stdout).toMatch(/^rule: force-push \(/m)
  })
})
