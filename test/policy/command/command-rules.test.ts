import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { approvalFacts } from '../../../src/bridge/ask-policy.js'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'
import { matchRule } from '../../../src/policy/match-rule.js'
import type { AskFacts } from '../../../src/policy/operator-policy.js'
import { parsePolicy } from '../../../src/policy/policy-file.js'
import { EVASIONS, OVER_MATCHES, standInPolicy } from './evasions.js'

beforeAll(() => loadShellParser())

const ALICE = 'U0SANDBOX01'
const policy = parsePolicy(standInPolicy({ alice: ALICE, bob: 'U0SANDBOX02', carol: 'U0SANDBOX03' }), 'stand-in.json')
const docsYaml = /<!-- doc-test: file policy\.yml -->\n```yaml\n([\s\S]*?)\n```/.exec(readFileSync(new URL('../../../docs/policy.md', import.meta.url), 'utf8'))![1]!
const docs = parsePolicy(docsYaml, 'policy.yml')
const bash = (command: string): AskFacts => ({ kind: 'tool-approval', tool: 'bash', command })

describe('command rules', () => {
  it.each(EVASIONS)('holds $name ($command) to the force-push rule of docs/policy.md', ({ command }) => {
    expect(matchRule(docs, bash(command)).name).toBe('force-push')
    expect(matchRule(policy, bash(command)).name).toBe('force-push')
  })

  it.each(OVER_MATCHES)('keeps the allow rule $allowRule off $command: a looser rule needs every part', ({ command, allowRule, expected }) => {
    const rule = matchRule(policy, bash(command))

    expect(rule.name).not.toBe(allowRule)
    expect(rule.name).toBe(expected)
  })

  it('still gives the allow rules what they are for: commands all of whose parts they match', () => {
    expect(matchRule(policy, bash('git status')).name).toBe('git-status')
    expect(matchRule(policy, bash('ls *')).name).toBe('ls')
    expect(matchRule(policy, bash('git status --short; git status')).name).toBe('git-status')
    expect(matchRule(policy, bash('git status $X')).name).toBe('git-status')
  })

  it('leaves pushes that overwrite nothing to the defaults', () => {
    for (const command of ['git push origin main', 'git push -u origin main', 'git push --follow-tags origin HEAD:main', 'echo git push --force']) {
      expect(matchRule(docs, bash(command)).name, command).toBe('defaults')
    }
  })

  it.each([
    'git push --force-with-lease=main origin main',
    'git push --forc origin main',
    'git push origin +HEAD:main',
    'sudo -u deploy git push -f',
    'echo --force | xargs git push origin',
    'git push $(echo --force) origin main',
    'git push "$FLAGS" origin main',
    '$GIT push origin main',
    "git -c alias.p='push -f' p origin",
    'echo "git push -f" | sh',
    'eval "$CMD"',
    "bash -c \"bash -c 'bash -c \\\"bash -c git\\\"'\"",
  ])('holds %j to the strictest rule that could apply', (command) => {
    expect(matchRule(policy, bash(command)).name).toBe('force-push')
  })

  it('reads a tool call whose command and cmd differ as unknown, never as the empty one', () => {
    const facts = approvalFacts('bash', JSON.stringify({ command: '', cmd: 'git push --force origin main' }), undefined)

    expect(facts.command).toBeUndefined()
    expect(matchRule(policy, facts).name).toBe('force-push')
  })

  it('reads a tool call whose command and cmd both hold different commands as unknown: the tool may run either', () => {
    const facts = approvalFacts('bash', JSON.stringify({ command: 'ls', cmd: 'git push --force origin main' }), undefined)

    expect(facts.command).toBeUndefined()
    expect(matchRule(policy, facts).name).toBe('force-push')
    expect(approvalFacts('bash', JSON.stringify({ command: 'ls', cmd: 'ls' }), undefined).command).toBe('ls')
  })

  it('reads an argv list as the words it runs', () => {
    const facts = approvalFacts('bash', JSON.stringify({ command: ['bash', '-c', 'git push --force origin main'] }), undefined)

    expect(facts.command).toBe("bash -c 'git push --force origin main'")
    expect(matchRule(policy, facts).name).toBe('force-push')
  })
})

describe('command rules in the policy file', () => {
  const withCommand = (command: unknown) => JSON.stringify({ rules: [{ name: 'r', match: { kind: 'tool-approval', command }, approvers: [ALICE] }] })

  it('takes globs, commands in command terms, and lists of both', () => {
    const parsed = parsePolicy(withCommand(['git status*', { program: 'git', subcommand: 'push', flags: ['-f', '--force'] }]), 'p.json')

    expect(parsed.rules[0]!.match.command).toEqual(['git status*', { program: ['git'], subcommand: ['push'], flags: ['-f', '--force'] }])
    expect(parsePolicy(withCommand({ program: 'rm' }), 'p.json').rules[0]!.match.command).toEqual([{ program: ['rm'] }])
  })

  it.each([
    [{ program: '/usr/bin/git' }, /rules\[0\]\.match\.command.*must be a program name, not a path/],
    [{ programme: 'git' }, /rules\[0\]\.match\.command/],
    [{}, /must say something: program, subcommand, flags or args/],
    [{ program: 'git', flags: ['force'] }, /must be options such as -f or --force/],
    [[], /must list at least one pattern/],
  ])('refuses %j naming the field', (command, message) => {
    expect(() => parsePolicy(withCommand(command), 'p.json')).toThrow(message)
  })
})
