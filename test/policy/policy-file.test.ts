import { beforeAll, describe, expect, it } from 'vitest'
import { loadShellParser } from '../../src/policy/command/shell-parser.js'
import { checkKeyRules } from '../../src/policy/key-rules.js'
import { matchRule, mismatchOf } from '../../src/policy/match-rule.js'
import { keyEntry, parsePolicy, PolicyFileError, sha256 } from '../../src/policy/policy-file.js'
import { MAX_LISTED_IDS } from '../../src/policy/policy-input.js'
import { policyWarnings } from '../../src/policy/policy-warnings.js'
import { TEAM_POLICY_YAML } from './team-policy.js'

// Command rules read the parse; until the parser has loaded every command is unknown (the strictest rule).
beforeAll(() => loadShellParser())

const team = () => parsePolicy(TEAM_POLICY_YAML, 'policy.yml')

function problemOf(text: string): PolicyFileError {
  try {
    parsePolicy(text, 'policy.yml')
  } catch (error) {
    if (error instanceof PolicyFileError) return error
    throw error
  }
  throw new Error('the policy was accepted')
}

describe('the policy file', () => {
  it('reads the team\'s file: defaults, rules that inherit what they leave out, keys with two secrets, limits', () => {
    const policy = team()

    expect(policy.defaults).toMatchObject({ name: 'defaults', channel: 'C0AGENTS', answerers: ['S0ENGINEERS'], approvals: 1, remindAfterMs: 15 * 60_000, escalateTo: 'S0LEADS', escalateAfterMs: 3_600_000 })
    expect(policy.rules.map((rule) => rule.name)).toEqual(['payments-plans', 'force-push', 'ci-agent'])
    expect(policy.rules[0]).toMatchObject({ channel: 'C0PAYMENTS', approvers: ['S0PAYLEADS'], approvals: 2, remindAfterMs: 15 * 60_000, escalateTo: 'S0LEADS' })
    expect(policy.rules[1]).toMatchObject({ channel: 'C0AGENTS', approvers: ['S0LEADS'], approvals: 1, match: { tool: ['bash'] } })
    expect(policy.keys.find((key) => key.name === 'ci')?.secretSha256).toHaveLength(2)
    expect(policy.limits).toEqual({ pending: 500, pendingPerKey: 50 })
    expect(policy.version).toMatch(/^[0-9a-f]{12}$/)
  })

  it('reads the same policy written as JSON, with the same version', () => {
    const policy = team()
    const json = JSON.stringify({ version: 1, defaults: { channel: 'C0AGENTS', answerers: ['S0ENGINEERS'], approvals: 1, mention: ['S0ENGINEERS'], remindAfter: '15m', escalate: { to: 'S0LEADS', after: '1h' } } })

    expect(parsePolicy(json, 'policy.json').defaults).toEqual(policy.defaults)
  })

  it('changes its version when a rule changes, and keeps it when only comments do', () => {
    expect(parsePolicy(TEAM_POLICY_YAML.replace('# #agents', '# the agents channel'), 'p').version).toBe(team().version)
    expect(parsePolicy(TEAM_POLICY_YAML.replace('approvals: 2', 'approvals: 3'), 'p').version).not.toBe(team().version)
  })

  it('names the file, line and field of a bad value', () => {
    const error = problemOf(TEAM_POLICY_YAML.replace('approvals: 2', 'approvals: 20'))

    expect(error.message).toBe('policy.yml:18: rules[0].approvals must be at most 10')
  })

  it('names a field it does not know, on its line', () => {
    const error = problemOf('defaults:\n  channel: C0AGENTS\n  approver: [U0SANDBOX01]\n')

    expect(error).toMatchObject({ line: 3, field: 'defaults.approver' })
    expect(error.message).toMatch(/is not a field this file knows/)
  })

  it('names the line of a YAML syntax error', () => {
    expect(problemOf('defaults:\n  channel: [C0AGENTS\n').message).toMatch(/^policy\.yml:\d+: is not valid YAML or JSON/)
  })

  it('refuses a secret written where its digest belongs', () => {
    expect(problemOf('keys:\n  - name: ci\n    sha256: hunter2hunter2\n').message).toMatch(/^policy\.yml:3: keys\[0\]\.sha256 must be a 64-character hex SHA-256 digest/)
  })

  it('refuses a key that a rule names but nobody defines, and two rules of one name', () => {
    expect(problemOf('rules:\n  - name: a\n    match: { key: ghost }\n').message).toMatch(/^policy\.yml:3: rules\[0\]\.match\.key names no key/)
    expect(problemOf('rules:\n  - name: a\n  - name: a\n').message).toMatch(/^policy\.yml:3: rules\[1\]\.name is used twice/)
  })

  it('accepts a rule naming a key from DSH_SLACK_API_KEYS', () => {
    expect(() => parsePolicy('rules:\n  - name: a\n    match: { key: ops }\n', 'p', [keyEntry('ops', 'x'.repeat(24))])).not.toThrow()
  })
})

describe('matching rules', () => {
  it('sends a payments plan to the payments rule, and a plan elsewhere to the defaults', () => {
    const policy = team()

    expect(matchRule(policy, { kind: 'plan-review', cwd: '/srv/payments/api' }).name).toBe('payments-plans')
    expect(matchRule(policy, { kind: 'plan-review', cwd: '/srv/search' }).name).toBe('defaults')
    expect(matchRule(policy, { kind: 'plan-review' }).name).toBe('defaults')
  })

  it('sends a relayed git push --force to the leads, and other bash commands to the defaults', () => {
    const policy = team()

    expect(matchRule(policy, { kind: 'tool-approval', tool: 'bash', command: 'git push --force origin main' }).name).toBe('force-push')
    expect(matchRule(policy, { kind: 'tool-approval', tool: 'bash', command: 'git push origin main --force-with-lease' }).name).toBe('force-push')
    expect(matchRule(policy, { kind: 'tool-approval', tool: 'bash', command: 'git push origin main' }).name).toBe('defaults')
  })

  it('applies a command rule to a tool call whose command is unknown, rather than a looser rule', () => {
    expect(matchRule(team(), { kind: 'tool-approval', tool: 'bash' }).name).toBe('force-push')
  })

  it('matches rules in order: the first that fits wins', () => {
    const policy = team()

    expect(matchRule(policy, { kind: 'plan-review', cwd: '/srv/payments', key: 'ci' }).name).toBe('payments-plans')
    expect(matchRule(policy, { kind: 'question', key: 'ci' }).name).toBe('ci-agent')
  })

  it('says why a rule does not match', () => {
    expect(mismatchOf({ kind: ['plan-review'] }, { kind: 'question' })).toBe('kind is question, the rule wants plan-review')
    expect(mismatchOf({ cwd: ['/srv/payments*'] }, { kind: 'question' })).toBe('cwd is not known for this ask')
  })

  it('never lets a key\'s rules: list skip an earlier rule: the ask falls under the first match, and a rule outside the key\'s list is refused', () => {
    const policy = parsePolicy('rules:\n  - name: strict-plans\n    match: { kind: plan-review }\n    approvals: 2\n  - name: team-a\n    approvals: 1\nkeys:\n  - name: teamA\n    sha256: ' + 'a'.repeat(64) + '\n    rules: [team-a]\n', 'p')
    const plan = { kind: 'plan-review', key: 'teamA' } as const

    expect(matchRule(policy, plan).name).toBe('strict-plans')
    expect(() => checkKeyRules(policy, plan, matchRule(policy, plan))).toThrow(expect.objectContaining({ name: 'UserInteractionError', code: 'POLICY_FORBIDDEN' }))
    expect(matchRule(policy, { kind: 'question', key: 'teamA' }).name).toBe('team-a')
    expect(() => checkKeyRules(policy, { kind: 'question', key: 'teamA' }, matchRule(policy, { kind: 'question', key: 'teamA' }))).not.toThrow()
  })

  it('refuses one digest under two keys, in the file or shared with DSH_SLACK_API_KEYS: which key a request is would depend on the order', () => {
    const twice = problemOf(`keys:\n  - name: teamA\n    sha256: ${'b'.repeat(64)}\n  - name: teamB\n    sha256: [${'c'.repeat(64)}, ${'b'.repeat(64)}]\n`)
    const shared = () => parsePolicy(`keys:\n  - name: teamA\n    sha256: ${sha256('x'.repeat(24))}\n`, 'policy.yml', [keyEntry('ops', 'x'.repeat(24))])

    expect(twice).toMatchObject({ field: 'keys[1].sha256', line: 5 })
    expect(twice.message).toMatch(/is also the digest of key "teamA"/)
    expect(shared).toThrow(/each secret belongs to one key/)
  })

  it('says an unquoted all-digit digest was read as a number, and how to fix it', () => {
    const error = problemOf(`keys:\n  - name: ci\n    sha256: ${'1'.repeat(64)}\n`)

    expect(error).toMatchObject({ field: 'keys[0].sha256', line: 3 })
    expect(error.problem).toMatch(/^is a number: YAML reads an unquoted all-digit digest as a number .* put the digest in quotes/)
    expect(() => parsePolicy(`keys:\n  - name: ci\n    sha256: "${'1'.repeat(64)}"\n`, 'p')).not.toThrow()
  })

  it('caps the ids of a list, naming the cap', () => {
    const many = Array.from({ length: MAX_LISTED_IDS + 1 }, (_, n) => `U0${String(n).padStart(5, '0')}`)

    expect(problemOf(`defaults:\n  approvers: [${many.join(', ')}]\n`).message).toMatch(`defaults.approvers may name at most ${MAX_LISTED_IDS}`)
    expect(() => parsePolicy(`defaults:\n  approvers: [${many.slice(1).join(', ')}]\n`, 'p')).not.toThrow()
  })

  it('reads read: all and withdraw: all on a key, and nothing on a key that says neither', () => {
    const policy = parsePolicy(`keys:\n  - name: audit\n    sha256: ${'d'.repeat(64)}\n    read: all\n  - name: teamA\n    sha256: ${'e'.repeat(64)}\n`, 'p')

    expect(policy.keys.map((key) => key.access)).toEqual([{ read: 'all', withdraw: 'own' }, undefined])
    expect(problemOf(`keys:\n  - name: a\n    sha256: ${'d'.repeat(64)}\n    read: everything\n`).field).toBe('keys[0].read')
  })
})

describe('policy warnings', () => {
  it('warns when a rule looser than the defaults is reached by the agent\'s title alone, not when it tightens or is also matched on a key', () => {
    const loose = parsePolicy(`defaults:\n  approvers: [U0ALICE, U0BOB]\n  approvals: 2\nrules:\n  - name: docs\n    match: { kind: plan-review, title: "Docs*" }\n    approvals: 1\n`, 'p')
    const strict = parsePolicy(`defaults:\n  approvals: 1\nrules:\n  - name: payments\n    match: { title: "Payments*" }\n    approvals: 2\n`, 'p')
    const keyed = parsePolicy(`defaults:\n  approvals: 2\nrules:\n  - name: docs\n    match: { title: "Docs*", key: ci }\n    approvals: 1\nkeys:\n  - name: ci\n    sha256: ${'f'.repeat(64)}\n`, 'p')

    expect(policyWarnings(loose)).toEqual([expect.stringMatching(/^rule "docs" is matched by the agent's title alone, and it needs 1 approval\(s\) where the defaults need 2: any agent can reach it/)])
    expect(policyWarnings(strict)).toEqual([])
    expect(policyWarnings(keyed)).toEqual([])
  })
})
