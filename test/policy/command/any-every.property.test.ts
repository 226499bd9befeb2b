import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'
import { matchRule } from '../../../src/policy/match-rule.js'
import { atLeastAsStrict } from '../../../src/policy/strictness.js'
import { checkProperty } from '../../support/property-runs.js'
import { randomPolicy as policy } from './random-policies.js'

// Random rules × random shell commands (compound, wrapped, quoted): the
// extension of tighten.test.ts's random rules × requests to command rules.

beforeAll(() => loadShellParser())

/** One simple command as plain words: the oracle matches it alone. */
const atom = fc.record({
  head: fc.constantFrom(['git', 'push'], ['git', 'status'], ['git', 'log'], ['ls'], ['rm'], ['echo'], ['cat'], ['make']),
  flags: fc.subarray(['-f', '--force', '-u', '-r', '--mirror', '-v']),
  args: fc.subarray(['origin', 'main', '+main', ':old', '*', 'x']),
})
type Atom = { head: readonly string[]; flags: string[]; args: string[] }
const plain = ({ head, flags, args }: Atom) => [...head, ...flags, ...args].join(' ')

/** The same words, quoted one way or another; `*` stays bare so it keeps meaning a glob word. */
const quoted = (word: string, how: number) => (word === '*' || how === 0 ? word : how === 1 ? `'${word}'` : `"${word}"`)

/** How one simple command may be written: wrapped, quoted, spaced, nested in a shell. */
const written = fc.record({
  atom,
  wrapper: fc.constantFrom('', 'command ', 'sudo -u root ', 'env CI=1 ', 'CI=1 NODE_ENV=test ', 'nice -n 5 ', 'nohup ', 'time ', 'timeout 5 '),
  path: fc.boolean(),
  quoting: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 12, maxLength: 12 }),
  space: fc.constantFrom(' ', '  ', '\t'),
  shape: fc.constantFrom('bare', 'bash -c', 'subshell', 'braces'),
})
type Written = { atom: Atom; wrapper: string; path: boolean; quoting: number[]; space: string; shape: string }

function render({ atom: parts, wrapper, path, quoting, space, shape }: Written): string {
  const words = [...parts.head, ...parts.flags, ...parts.args].map((word, index) => quoted(word, index === 0 ? 0 : quoting[index] ?? 0))
  if (path && parts.head[0] === 'git') words[0] = '/usr/bin/git'
  const text = `${wrapper}${words.join(space)}`
  if (shape === 'bash -c') return `bash -c "${text.replace(/"/g, '\\"')}"`
  if (shape === 'subshell') return `( ${text} )`
  if (shape === 'braces') return `{ ${text}; }`
  return text
}

const compound = fc.array(fc.tuple(written, fc.constantFrom(' ; ', ' && ', ' || ', ' | ', '\n')), { minLength: 1, maxLength: 4 })

const bash = (command: string) => ({ kind: 'tool-approval' as const, tool: 'bash', command })

describe('command rules over random rules × random shell commands', () => {
  it('a stricter rule applies when any part matches it, a looser one only when every part does, however the parts are written', () => {
    checkProperty(
      fc.property(policy, compound, (operator, pieces) => {
        const command = pieces.map(([piece, join], index) => `${render(piece)}${index < pieces.length - 1 ? join : ''}`).join('')
        const alone = pieces.map(([piece]) => matchRule(operator, bash(plain(piece.atom))))

        const rule = matchRule(operator, bash(command))

        // Only a rule some part falls under alone, never one none of them does.
        expect(alone).toContain(rule)
        // Any: never provably looser than the rule of one of its parts.
        for (const part of alone) expect(atLeastAsStrict(part, rule) && !atLeastAsStrict(rule, part)).toBe(false)
        // Every: a rule that every part falls under is the rule.
        if (alone.every((part) => part === alone[0])) expect(rule).toBe(alone[0])
        // Writing it differently changes nothing: plain atoms joined by `;` fall under the same rule.
        expect(rule).toBe(matchRule(operator, bash(pieces.map(([piece]) => plain(piece.atom)).join('; '))))
      }),
      { runs: 300, timeLimitMs: 8000 },
    )
  })
})
