import fc from 'fast-check'
import type { CommandPattern } from '../../../src/policy/command/command-pattern.js'
import type { OperatorPolicy, OperatorRule } from '../../../src/policy/operator-policy.js'

// Random command rules for the property tests of test/policy/command/.

const POOL = ['U0A1', 'U0B2', 'U0C3', 'S0LEADS'] as const

const PATTERNS: CommandPattern[] = [
  'git push*',
  'git status*',
  'ls *',
  'rm -rf *',
  'git push * -f*',
  { program: ['git'], subcommand: ['push'], flags: ['-f', '--force'] },
  { program: ['git'], subcommand: ['push'], args: ['+*', ':*'] },
  { program: ['rm'], flags: ['-r'] },
  { program: ['ls'] },
  { program: ['echo', 'cat'] },
]

const operatorRule = (name: string) =>
  fc.record({
    command: fc.uniqueArray(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 }),
    approvers: fc.uniqueArray(fc.constantFrom(...POOL), { maxLength: POOL.length }),
    approvals: fc.integer({ min: 1, max: 3 }),
  }).map(({ command, approvers, approvals }): OperatorRule => ({ name, match: { kind: ['tool-approval'], command }, channels: [], answerers: [], approvers, approvals, mention: [] }))

/** A policy of one to four random command rules (globs and command shapes, random approvers and approvals) and random defaults. */
export const randomPolicy = fc
  .tuple(fc.array(fc.constant(null), { minLength: 1, maxLength: 4 }), fc.uniqueArray(fc.constantFrom(...POOL), { maxLength: POOL.length }), fc.integer({ min: 1, max: 3 }))
  .chain(([slots, answerers, approvals]) =>
    fc.tuple(...slots.map((_, index) => operatorRule(`rule-${index}`))).map(
      (rules): OperatorPolicy => ({
        source: 'property',
        version: 'random',
        defaults: { name: 'defaults', match: {}, channels: [], answerers, approvers: [], approvals, mention: [] },
        rules,
        keys: [],
        limits: { pending: 1, pendingPerKey: 1 },
      }),
    ),
  )

