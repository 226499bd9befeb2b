import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/run-cli.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { TEAM_POLICY_YAML } from '../policy/team-policy.js'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-policy-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io = { env, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, stdin: new PassThrough(), onSignal: () => () => undefined }
  const code = await main(args, io as never)
  return { code, stdout, stderr }
}

const policy = file('team.yml', TEAM_POLICY_YAML)
const plan = { questions: [planReviewQuestion('# Plan\n\nRefund in batches.')], agent: { id: 's1', title: 'Refunds' } }

describe('dsh-slack policy check', () => {
  it('says a good file is valid, with its version, rules and keys, and exits 0', async () => {
    const result = await run(['policy', 'check', policy])

    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^✓ .*team\.yml: valid \(version [0-9a-f]{12}\): 3 rule\(s\) \(payments-plans, force-push, ci-agent\), 2 key\(s\), at most 500 pending asks \(50 per key\)\n$/)
  })

  it('names the file, line and field of a mistake in one line and exits 2', async () => {
    const broken = file('broken.yml', TEAM_POLICY_YAML.replace('tool: bash', 'tool: []'))

    const result = await run(['policy', 'check', broken])

    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`dsh-slack policy: ${broken}:22: rules[1].match.tool must list at least one pattern\n`)
  })
})

describe('dsh-slack policy check with DSH_SLACK_POLICY set', () => {
  it('lists where the file is looser than the one at DSH_SLACK_POLICY, and how to apply it on purpose, still exiting 0', async () => {
    const looser = file('looser.yml', TEAM_POLICY_YAML.replace('approvals: 2', 'approvals: 1'))

    const result = await run(['policy', 'check', looser], { DSH_SLACK_POLICY: policy })

    expect(result.code).toBe(0)
    expect(result.stdout.split('\n').slice(1)).toEqual([
      `! looser than DSH_SLACK_POLICY (${policy}): rule "payments-plans": approvals 2 → 1`,
      '! the service refuses a looser file it picks up by itself: put this one in place and send SIGHUP to apply it (docs/policy.md, "Reloading")',
      '',
    ])
  })

  it('says nothing more for a file that only tightens, or for the file at DSH_SLACK_POLICY itself', async () => {
    const tighter = file('tighter.yml', TEAM_POLICY_YAML.replace('approvals: 2', 'approvals: 3'))

    const checked = await run(['policy', 'check', tighter], { DSH_SLACK_POLICY: policy })
    const itself = await run(['policy', 'check', policy], { DSH_SLACK_POLICY: policy })

    expect(checked.stdout).toMatch(/^✓ [^\n]*\n$/)
    expect(itself.stdout).toMatch(/^✓ [^\n]*\n$/)
  })
})

describe('dsh-slack policy explain', () => {
  const env = { DSH_SLACK_POLICY: policy }

  it('names the rule an ask falls under, why the others did not match, and what it needs', async () => {
    const request = file('payments-plan.json', JSON.stringify(plan))
    const withCwd = file('tool.json', JSON.stringify({ tool: 'bash', command: 'git push --force origin main', host: 'https://harness.example' }))

    const planned = await run(['policy', 'explain', request, '--key', 'laptop-agents'], env)
    const forced = await run(['policy', 'explain', withCwd], env)

    expect(planned.code).toBe(0)
    expect(planned.stdout.split('\n')).toEqual([
      expect.stringMatching(/^policy: .*team\.yml \(version [0-9a-f]{12}\)$/),
      'ask: plan-review, title "Refunds", key laptop-agents',
      '  - payments-plans: cwd is not known for this ask',
      '  - force-push: kind is plan-review, the rule wants tool-approval',
      '  - ci-agent: key laptop-agents is not one of ci',
      'rule: defaults (no rule matches)',
      'channel: C0AGENTS',
      'answerers: S0ENGINEERS',
      'approvers: the answerers',
      'approvals: 1',
      'reminder: after 15m, mentioning S0ENGINEERS',
      'escalation: to S0LEADS after 1h',
      'request policy: none (the rule applies as it is)',
      '',
    ])
    expect(forced.stdout).toContain('  ✓ force-push: matches')
    expect(forced.stdout).toContain('rule: force-push (the first that matches)')
    expect(forced.stdout).toContain('approvers: S0LEADS')
  })

  it('shows the refusal a looser request would get, and exits 2', async () => {
    const request = file('looser.json', JSON.stringify({ tool: 'bash', command: 'git push -f', policy: { approvers: ['U0SANDBOX02'] } }))

    const result = await run(['policy', 'explain', request], env)

    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/refused: POLICY_FORBIDDEN: policy\.approvers is looser than the operator's policy \(rule "force-push"\): U0SANDBOX02 is not among the approvers it names \(S0LEADS\)/)
  })

  it('explains against the environment variables\' one rule when no policy file is set', async () => {
    const request = file('plain.json', JSON.stringify({ questions: [{ id: 'q', question: 'Ship it?' }] }))

    const result = await run(['policy', 'explain', request], { SLACK_ALLOWED_USERS: 'U0SANDBOX01', SLACK_CHANNEL: 'C0SANDBOX01' })

    expect(result.code).toBe(0)
    expect(result.stdout).toContain('rule: environment (no rule matches: the policy has none)')
    expect(result.stdout).toContain('answerers: U0SANDBOX01')
  })
})
