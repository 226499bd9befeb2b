import { beforeAll, describe, expect, it } from 'vitest'
import { parseCommand, partText } from '../../../src/policy/command/parse-command.js'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'
import { matchRule } from '../../../src/policy/match-rule.js'
import type { AskFacts } from '../../../src/policy/operator-policy.js'
import { parsePolicy } from '../../../src/policy/policy-file.js'
import { HARMLESS, ISSUE_48_EVASIONS, policyHolding, type HeldBy } from './evasions.js'

// Issue 48 item 2: a looser rule (here the defaults, one click by anyone)
// applies only to a command every simple command of which is understood.

beforeAll(() => loadShellParser())

const policies = { 'force-push': parsePolicy(policyHolding('force-push').text, 'policy.yml'), 'rm-root': parsePolicy(policyHolding('rm-root').text, 'rm-root.json') }
const bash = (command: string): AskFacts => ({ kind: 'tool-approval', tool: 'bash', command })

describe('command rules fail closed', () => {
  it.each(ISSUE_48_EVASIONS)('holds $name ($command) to the $heldBy rule', ({ command, heldBy }) => {
    expect(matchRule(policies[heldBy], bash(command)).name).toBe(heldBy)
  })

  it.each(ISSUE_48_EVASIONS)('reads $name as $seen, and says why', ({ command, seen, why, readAs }) => {
    const { parts } = parseCommand(command)

    if (seen === 'not understood') expect(parts.flatMap((part) => part.unknown ?? [])).toContainEqual(expect.stringMatching(why!))
    if (seen === 'words only known when it runs') {
      expect(parts.every((part) => part.unknown === undefined)).toBe(true)
      expect(parts.flatMap((part) => part.unknownWords ?? [])).toContainEqual(expect.stringMatching(why!))
    }
    if (seen === 'read as it runs') expect(parts.map((part) => [part.unknown, partText(part)])).toEqual([[undefined, readAs]])
  })

  it.each(HARMLESS)('keeps %j under the defaults: every part of it is understood', (command) => {
    expect(parseCommand(command).parts.map((part) => part.unknown)).toEqual(parseCommand(command).parts.map(() => undefined))
    for (const heldBy of ['force-push', 'rm-root'] as HeldBy[]) expect(matchRule(policies[heldBy], bash(command)).name).toBe('defaults')
  })
})
