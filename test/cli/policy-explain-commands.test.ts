import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/run-cli.js'
import { EVASIONS, ISSUE_48_EVASIONS, OVER_MATCHES, policyHolding, standInPolicy } from '../policy/command/evasions.js'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-explain-commands-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

async function explain(command: unknown, policyPath = policy): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const io = { env: { DSH_SLACK_POLICY: policyPath }, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true }, stdin: new PassThrough(), onSignal: () => () => undefined }
  const request = file('request.json', JSON.stringify({ tool: 'bash', ...(typeof command === 'string' ? { command } : { arguments: JSON.stringify(command) }) }))
  const code = await main(['policy', 'explain', request], io as never)
  return { code, stdout }
}

const policy = file('policy.json', standInPolicy({ alice: 'U0SANDBOX01', bob: 'U0SANDBOX02', carol: 'U0SANDBOX03' }))
const holding = { 'force-push': file('policy.yml', policyHolding('force-push').text), 'rm-root': file('rm-root.json', policyHolding('rm-root').text) }

describe('dsh-slack policy explain on commands', () => {
  it.each(EVASIONS)('shows $name ($command) falling to the force-push rule, with the parse', async ({ command }) => {
    const { code, stdout } = await explain(command)

    expect(code).toBe(0)
    expect(stdout).toMatch(/^command: parsed into \d simple commands?$/m)
    // Read as a push, or (an assignment of a variable it does not know) not understood, saying why.
    expect(stdout).toMatch(/^  \d\. (git push .*|not understood: it sets FOO for git: .*)$/m)
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

    expect(stdout).toContain('  1. not understood: its program is only known when it runs (a variable or a substitution) in "$GIT push origin main"')
    expect(stdout).toContain('  ? force-push: might match (it is not understood, so any rule might apply)')
    expect(stdout).toContain('rule: force-push (the strictest of the rules it might fall under: git-status, ls, force-push, defaults)')
  })

  it('reads {"command": "", "cmd": "git push --force …"} as unknown, not as an empty command', async () => {
    const { stdout } = await explain({ command: '', cmd: 'git push --force origin main' })

    expect(stdout).toContain('  1. not understood: the call\'s arguments were not seen')
    expect(stdout).toMatch(/^rule: force-push \(/m)
  })

  it.each(ISSUE_48_EVASIONS)('shows $name falling to the $heldBy rule, and why ($seen)', async ({ command, heldBy, seen, readAs }) => {
    const { code, stdout } = await explain(command, holding[heldBy])

    expect(code).toBe(0)
    expect(stdout).toMatch(new RegExp(`^rule: ${heldBy} \\(`, 'm'))
    expect(stdout).toMatch(/^approvers: S0LEADS, U0SANDBOX01$/m)
    if (seen === 'not understood') expect(stdout).toMatch(/^  \d+\. not understood: \S.+ in ".+$/m)
    if (seen === 'not understood') expect(stdout).toMatch(new RegExp(`^  \\? ${heldBy}: might match( simple command [\\d, ]+)? \\((it is|they are) not understood, so any rule might apply\\)$`, 'm'))
    if (seen === 'words only known when it runs') expect(stdout).toMatch(/^  \? rm-root: might match( simple command \d)? \(some of its words are only known when it runs\)$/m)
    if (seen === 'words only known when it runs') expect(stdout).toMatch(/^  \d+\. rm -r -f \? \(\?: .+(is a pattern the shell expands into file names|climbs out of a directory dsh-slack does not know).*\)$/m)
    if (seen === 'read as it runs') expect(stdout.split('\n')).toContain(`  1. ${readAs}`)
  })
})
