import { beforeAll, describe, expect, it } from 'vitest'
import { loadShellParser } from '../../src/policy/command/shell-parser.js'
import { matchRule } from '../../src/policy/match-rule.js'
import type { OperatorPolicy } from '../../src/policy/operator-policy.js'
import { parsePolicy, sha256 } from '../../src/policy/policy-file.js'
import { policyLoosenings } from '../../src/policy/policy-loosenings.js'
import { TEAM_POLICY_YAML } from './team-policy.js'

// Command rules read the parse; until the parser has loaded every command is unknown (the strictest rule).
beforeAll(() => loadShellParser())

const team = () => parsePolicy(TEAM_POLICY_YAML, 'policy.yml')
const edited = (from: string, to: string) => {
  if (!TEAM_POLICY_YAML.includes(from)) throw new Error(`the team's file has no ${JSON.stringify(from)}`)
  return parsePolicy(TEAM_POLICY_YAML.replace(from, to), 'policy.yml')
}
const looser = (after: OperatorPolicy, before: OperatorPolicy = team()) => policyLoosenings(before, after)

describe('a policy compared with the one in force', () => {
  it('finds nothing looser in the same policy, or one that differs only in comments and where it came from', () => {
    const same = parsePolicy(TEAM_POLICY_YAML.replace('# #agents', '# the agents channel'), 'elsewhere.yml')

    expect(looser(same)).toEqual([])
  })

  it('finds nothing looser where every change tightens: more approvals, fewer people, earlier reminders, a key or secret gone, lower limits', () => {
    const tighter = parsePolicy(
      TEAM_POLICY_YAML.replace('approvals: 2', 'approvals: 3')
        .replace('answerers: [S0PAYLEADS]', 'answerers: [S0PAYLEADS]\n    remindAfter: 5m')
        .replace('remindAfter: 15m', 'remindAfter: 10m')
        .replace('escalate: { to: S0LEADS, after: 1h }', 'escalate: { to: S0LEADS, after: 30m }')
        .replace(/  - name: laptop-agents\n    sha256: \w+\n/, '')
        .replace('      - 11783360766b07fd6bde6bda5c921ffb0522eb807fb16296d40260926a7017a5   # old: until every CI job has the new one\n', '')
        .replace('channels: [C0CI]', 'channels: []')
        .replace('pending: 500', 'pending: 100'),
      'policy.yml',
    )

    expect(looser(tighter)).toEqual([])
  })

  it('calls a rule gone looser: its asks fall to a later rule or the defaults', () => {
    const gone = parsePolicy(TEAM_POLICY_YAML.replace(/  - name: force-push[\s\S]*?approvers: \[S0LEADS\]       # @leads\n/, ''), 'policy.yml')

    expect(looser(gone)).toEqual(['rule "force-push" is gone'])
  })

  it('calls fewer approvals looser, in a rule and in the defaults', () => {
    expect(looser(edited('approvals: 2', 'approvals: 1'))).toEqual(['rule "payments-plans": approvals 2 → 1'])
    expect(looser(team(), edited('  approvals: 1\n  mention', '  approvals: 2\n  mention'))).toEqual(expect.arrayContaining(['defaults: approvals 2 → 1']))
  })

  it('calls an approver or answerer added, or a list emptied (anyone), looser', () => {
    expect(looser(edited('approvers: [S0PAYLEADS]', 'approvers: [S0PAYLEADS, U0MALLORY]'))).toEqual(['rule "payments-plans": approvers adds U0MALLORY'])
    expect(looser(edited('answerers: [S0PAYLEADS]', 'answerers: []'))).toEqual(['rule "payments-plans": answerers anyone who sees the card (was S0PAYLEADS)'])
  })

  it('calls approvers dropped looser when the answerers are more people: they decide instead', () => {
    const policy = (approvers: string) => parsePolicy(`defaults:\n  answerers: [U0ALICE01, U0BOB0001]\n  ${approvers}\n`, 'policy.yml')

    expect(policyLoosenings(policy('approvers: [U0ALICE01]'), policy('approvals: 1'))).toEqual(['defaults: approvers adds U0BOB0001'])
  })

  it('calls a later or missing reminder or escalation, and another escalation target, looser', () => {
    expect(looser(edited('remindAfter: 15m', 'remindAfter: 1h'))).toContain('defaults: reminder after 3600000 ms (was 900000 ms)')
    expect(looser(edited('  remindAfter: 15m\n', ''))).toContain('defaults: no reminder (was after 900000 ms)')
    expect(looser(edited('escalate: { to: S0LEADS, after: 1h }', 'escalate: { to: S0OTHERS, after: 1h }'))).toContain('defaults: escalates to S0OTHERS instead of S0LEADS')
  })

  it('calls another channel, a wider channel list and a new mention looser: other people see or are brought in', () => {
    expect(looser(edited('channel: C0PAYMENTS ', 'channel: C0PUBLIC1 '))).toEqual(['rule "payments-plans": its asks go to C0PUBLIC1 instead of C0PAYMENTS (other people may see them)'])
    expect(looser(edited('  approvals: 1\n  mention', '  channels: "*"\n  approvals: 1\n  mention'))).toContain('defaults: a request may pick any channel')
    expect(looser(edited('mention: [S0ENGINEERS]', 'mention: [S0ENGINEERS, U0MALLORY]'))).toContain('defaults: mention adds U0MALLORY (a request may bring them in)')
  })

  it('calls a new key, a new secret for a key, and a key that may do more looser', () => {
    const newKey = edited('limits:', `  - name: intruder\n    sha256: ${sha256('intruder-secret-0123456789')}\nlimits:`)
    const newSecret = edited('   # new\n', `   # new\n      - ${sha256('another-secret-0123456789')}\n`)
    const wider = edited('  - name: laptop-agents\n', '  - name: laptop-agents\n    read: all\n')
    const anyChannel = edited('    channels: [C0CI]\n', '')

    expect(looser(newKey)).toEqual(['key "intruder" is new'])
    expect(looser(newSecret)).toEqual(['key "ci" accepts a new secret'])
    expect(looser(wider)).toEqual(['key "laptop-agents" may read every key\'s asks'])
    expect(looser(anyChannel)).toEqual(['key "ci" may ask in any channel its rule allows (was C0CI)'])
  })

  it('calls a key\'s rule list dropped or widened looser', () => {
    const listed = (rules: string) => edited('    channels: [C0CI]\n', `    channels: [C0CI]\n${rules}`)

    expect(looser(listed(''), listed('    rules: [ci-agent]\n'))).toEqual(['key "ci" may fall under any rule (was ci-agent)'])
    expect(looser(listed('    rules: [ci-agent, force-push]\n'), listed('    rules: [ci-agent]\n'))).toEqual(['key "ci" may fall under "force-push" too'])
  })

  it('calls higher limits looser', () => {
    expect(looser(edited('pendingPerKey: 50', 'pendingPerKey: 500'))).toEqual(['limits.pendingPerKey 50 → 500'])
  })

  it('calls a rule that matches other asks, or two rules that swap places, looser: an ask may land on the looser one', () => {
    const moved = parsePolicy(TEAM_POLICY_YAML.replace(/(  - name: payments-plans[\s\S]*?)(  - name: force-push[\s\S]*?# @leads\n)/, '$2$1'), 'policy.yml')

    expect(looser(edited('cwd: "/srv/payments*"', 'cwd: "/srv/payments/api*"'))).toEqual(['rule "payments-plans" matches other asks than before'])
    expect(looser(moved)).toEqual(['rule "force-push" now comes before "payments-plans"'])
  })

  it('takes a new rule that is stricter than every rule it could take asks from', () => {
    const added = edited('  - name: force-push', '  - name: laptop-deploys\n    match: { kind: tool-approval, tool: deploy, key: laptop-agents }\n    approvals: 2\n  - name: force-push')

    expect(looser(added)).toEqual([])
  })

  it('calls a new rule with approvers of another group looser, even one meant as stricter: ids are compared as written, not as members', () => {
    const added = edited('  - name: force-push', '  - name: laptop-deploys\n    match: { kind: tool-approval, tool: deploy, key: laptop-agents }\n    approvers: [S0LEADS]\n    approvals: 2\n  - name: force-push')

    expect(looser(added)).toEqual(['new rule "laptop-deploys" takes asks from the defaults, and approvers adds S0LEADS'])
  })

  it('calls a new rule looser than the defaults or a later rule it could take asks from looser, naming each', () => {
    const loose = edited('  - name: force-push', '  - name: anyone\n    match: { kind: tool-approval }\n    answerers: []\n  - name: force-push')

    expect(looser(loose)).toEqual([
      'new rule "anyone" takes asks from rule "force-push", and answerers anyone who sees the card (was S0ENGINEERS)',
      'new rule "anyone" takes asks from rule "force-push", and approvers anyone who sees the card (was S0LEADS)',
      'new rule "anyone" takes asks from rule "ci-agent", and answerers anyone who sees the card (was S0ENGINEERS)',
      'new rule "anyone" takes asks from rule "ci-agent", and its asks go to C0AGENTS instead of C0CI (other people may see them)',
      'new rule "anyone" takes asks from the defaults, and answerers anyone who sees the card (was S0ENGINEERS)',
    ])
  })

  it('does not hold a new rule to a later rule no ask can match with it (other kinds, other keys)', () => {
    // The new rule is about plan reviews; force-push only about tool approvals, ci-agent only about key ci.
    const added = edited('  - name: force-push', '  - name: laptop-plans\n    match: { kind: plan-review, key: laptop-agents }\n    answerers: [S0ENGINEERS]\n  - name: force-push')

    expect(looser(added)).toEqual([])
  })

  it('calls two rules that each tighten looser when the stricter no longer is and the other comes first: a command under both falls under the earlier', () => {
    // `git push -f && rm -rf build`: its parts fall under both rules; the command gets the strictest of them, or, when neither asks at least as much as the other, the earlier.
    const rules = (pushApprovers: string) => parsePolicy(`defaults:\n  answerers: [U0ALICE01, U0BOB0001]\nrules:\n  - name: rm\n    match: { kind: tool-approval, command: "rm *" }\n    approvers: [${pushApprovers}]\n  - name: push\n    match: { kind: tool-approval, command: "git push *" }\n    approvals: 2\n`, 'policy.yml')

    const command = { kind: 'tool-approval' as const, tool: 'bash', command: 'git push -f && rm -rf build' }

    expect(matchRule(rules('U0ALICE01, U0BOB0001'), command).name).toBe('push')
    expect(matchRule(rules('U0ALICE01'), command).name).toBe('rm')
    expect(looser(rules('U0ALICE01'), rules('U0ALICE01, U0BOB0001'))).toEqual(['rule "rm" no longer asks less than rule "push", nor more: a command under both now falls under "rm", the earlier'])
    expect(looser(rules('U0ALICE01, U0BOB0001'), rules('U0ALICE01, U0BOB0001'))).toEqual([])
  })

  it('does not call it looser when the two rules asked as much as each other before: the earlier applied then too', () => {
    const rules = (rm: string, pushApprovals: number) => parsePolicy(`defaults:\n  answerers: [U0ALICE01, U0BOB0001]\nrules:\n  - name: rm\n    match: { kind: tool-approval, command: "rm *" }\n    approvers: [${rm}]\n  - name: push\n    match: { kind: tool-approval, command: "git push *" }\n    approvers: [U0ALICE01, U0BOB0001]\n    approvals: ${pushApprovals}\n`, 'policy.yml')

    expect(looser(rules('U0ALICE01', 2), rules('U0ALICE01, U0BOB0001', 1))).toEqual([])
  })

  it('counts a difference in a field no check knows as looser', () => {
    const before = team()
    const withGrants = { ...before, rules: before.rules.map((rule, index) => (index === 0 ? { ...rule, grants: 'session' } : rule)) } as OperatorPolicy
    const withExtra = { ...before, audit: { everything: false } } as OperatorPolicy

    expect(policyLoosenings(before, withGrants)).toEqual(['rule "payments-plans": grants changed (a reload cannot tell whether that loosens)'])
    expect(policyLoosenings(before, withExtra)).toEqual(['audit changed (a reload cannot tell whether that loosens)'])
  })
})
