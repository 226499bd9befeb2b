import { describe, expect, it } from 'vitest'
import { explain } from '../../src/policy/explain.js'
import { matchRule } from '../../src/policy/match-rule.js'
import { parsePolicy } from '../../src/policy/policy-file.js'

// Issue 39, item 4: `rules: []` on a key is a promise ("this key falls under
// no rule"), not the same as leaving `rules:` out ("any rule"). An empty list
// read as absent would let the key's asks fall under the laxest rule.

const digest = 'a'.repeat(64)
const POLICY = `defaults:
  approvals: 2
rules:
  - name: lax
    approvals: 1
keys:
  - name: ci
    sha256: ${digest}
    rules: []
  - name: laptop
    sha256: ${'b'.repeat(64)}
`

describe('a key whose rules: list is empty', () => {
  it('falls under the defaults only, though a rule matches every ask', () => {
    const policy = parsePolicy(POLICY, 'policy.yml')

    expect(matchRule(policy, { kind: 'question', key: 'ci' }).name).toBe('defaults')
    expect(matchRule(policy, { kind: 'question', key: 'laptop' }).name).toBe('lax')
  })

  it('is explained the same way by policy explain: the rule skipped, the defaults in force', () => {
    const policy = parsePolicy(POLICY, 'policy.yml')

    const explained = explain(policy, { kind: 'question', key: 'ci' }, {}, 'question')

    expect(explained.lines).toContain('  - lax: skipped: key ci may not fall under it')
    expect(explained.lines).toContain('rule: defaults (no rule matches)')
  })
})
