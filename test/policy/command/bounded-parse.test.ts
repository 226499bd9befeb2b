import { beforeAll, describe, expect, it } from 'vitest'
import { COMMAND_LIMITS, type CommandLimits } from '../../../src/policy/command/limits.js'
import { parseCommand } from '../../../src/policy/command/parse-command.js'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'
import { matchRule } from '../../../src/policy/match-rule.js'
import type { AskFacts } from '../../../src/policy/operator-policy.js'
import { parsePolicy } from '../../../src/policy/policy-file.js'
import { policyHolding } from './evasions.js'

// Issue 48 items 6 and 8: reading a command is bounded. Past a limit the
// command is not understood (the strictest rule that could apply), never a
// crash and never seconds of synchronous work.

beforeAll(() => loadShellParser())

const docs = parsePolicy(policyHolding('force-push').text, 'policy.yml')
const bash = (command: string): AskFacts => ({ kind: 'tool-approval', tool: 'bash', command })

/** `parseCommand` and the time it took. */
function timed(command: string, limits: CommandLimits = COMMAND_LIMITS): { unknown: (string | undefined)[]; ms: number } {
  const started = performance.now()
  const { parts } = parseCommand(command, limits)
  return { unknown: parts.map((part) => part.unknown), ms: performance.now() - started }
}

/** The limits without the time bound: for a test of another bound, on a machine loaded enough that a parse takes longer. */
const UNTIMED: CommandLimits = { ...COMMAND_LIMITS, maxParseMs: 60_000 }

/** `$(…)` nested `depth` times around a force push. */
const nested = (depth: number) => `${'$('.repeat(depth)}git push -f origin main${')'.repeat(depth)}`

// Generous for a loaded machine: the parse stops at maxParseMs, the rest is linear and capped.
const BOUNDED_MS = 3000

describe('reading a command is bounded', () => {
  it('refuses 5,000 nested $(…) cleanly, without overflowing the stack, and holds it to the strictest rule', () => {
    const { unknown, ms } = timed(nested(5000))

    // Too deep; or, on a machine loaded enough that parsing 15 KB takes longer than maxParseMs, too slow.
    expect(unknown).toHaveLength(1)
    expect(unknown[0]).toMatch(new RegExp(`^(it nests more than ${COMMAND_LIMITS.maxTreeDepth} levels deep|the shell parser gave up on it)`))
    expect(ms).toBeLessThan(BOUNDED_MS)
    expect(matchRule(docs, bash(nested(5000))).name).toBe('force-push')
  })

  it('refuses a tree deeper than its depth limit by its depth', () => {
    // Each $(…) adds three levels: 100 of them (1 KB) pass the limit of 256.
    expect(timed(nested(100), UNTIMED).unknown).toEqual([`it nests more than ${COMMAND_LIMITS.maxTreeDepth} levels deep (substitutions inside substitutions…), more than dsh-slack reads`])
  })

  it('still reads substitutions nested a few levels deep', () => {
    expect(parseCommand(nested(20), UNTIMED).parts.map((part) => part.unknown)).not.toContain(expect.stringMatching(/levels deep/))
    expect(matchRule(docs, bash(nested(20))).name).toBe('force-push')
  })

  it('refuses a command line holding more syntax than it reads by the count', () => {
    // Four nodes a command (command, name, word, `;`): 3,000 of them pass the limit of 10,000.
    expect(timed('ls; '.repeat(3000), UNTIMED).unknown).toEqual(['it holds more shell syntax than dsh-slack reads in one command line (thousands of commands)'])
    expect(timed('ls; '.repeat(2000), UNTIMED).unknown).toEqual(new Array(2000).fill(undefined))
  })

  it('counts the nodes of nested shells together: each under the limit, all of them over it', () => {
    const shell = `bash -c "${'ls; '.repeat(800)}"`

    expect(timed(shell, UNTIMED).unknown.every((why) => why === undefined)).toBe(true)
    expect(timed(new Array(4).fill(shell).join('; '), UNTIMED).unknown).toContain('it holds more shell syntax than dsh-slack reads in one command line (thousands of commands)')
  })

  it('refuses a 1 MB command by its length, without parsing it', () => {
    const command = `echo ${'a '.repeat(512 * 1024)}`
    const { unknown, ms } = timed(command)

    expect(unknown).toEqual([`it is ${command.length} characters long, more than the ${COMMAND_LIMITS.maxLength} dsh-slack reads`])
    expect(ms).toBeLessThan(100)
  })

  it('reads a command of the largest length read', () => {
    const command = `cat > notes.md <<'EOF'\n${'a line of notes\n'.repeat(Math.floor((COMMAND_LIMITS.maxLength - 40) / 16))}EOF`

    expect(command.length).toBeLessThanOrEqual(COMMAND_LIMITS.maxLength)
    expect(parseCommand(command, UNTIMED).parts.map((part) => part.unknown)).toEqual([undefined])
  })

  it.each([
    ['64 KB of here-document starts (14 s to parse once)', '<<A\n'.repeat(16_000)],
    ['64 KB of ${ (5 s to parse once)', '${'.repeat(32_000)],
    ['a nested shell holding thousands of commands', `bash -c "${'ls; '.repeat(13_000)}"`],
    ['thousands of simple commands', 'ls -la; '.repeat(8000)],
  ])('gives up on %s within its bounds, as not understood', (_, command) => {
    const { unknown, ms } = timed(command)

    expect(unknown).toHaveLength(1)
    expect(unknown[0]).toMatch(/gave up on it: reading it took too long|more shell syntax than dsh-slack reads|could not read it/)
    expect(ms).toBeLessThan(BOUNDED_MS)
    expect(matchRule(docs, bash(command)).name).toBe('force-push')
  })

  it('parses the next command afresh after giving up on one', () => {
    timed('<<A\n'.repeat(16_000))

    expect(parseCommand('git status').parts.map((part) => part.unknown)).toEqual([undefined])
  })
})
