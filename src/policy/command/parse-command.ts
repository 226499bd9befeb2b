import { COMMAND_LIMITS, type CommandLimits } from './limits.js'
import { normaliseCommand, unknownPart, type CommandPart } from './normalise-command.js'
import { isOption } from './read-arguments.js'
import { readCommands } from './read-commands.js'
import { withShellTree, type ReadBudget } from './shell-parser.js'
import { understoodVariable, UNDERSTOOD_PROGRAMS, whyNotUnderstood } from './understood.js'

/** How deep `bash -c '… bash -c "…"'` (and `eval`, `env -S`) is followed before the rest counts as unknown. */
export const MAX_SHELL_DEPTH = COMMAND_LIMITS.maxShellDepth

/** A command line as a policy sees it: the simple commands it runs. */
export interface ParsedCommand {
  /**
   * Each simple command, normalised. One with `unknown` set is not
   * understood (decision 0085): it falls to the strictest rule that could
   * apply, and a looser rule (or a standing grant) covers the command line
   * only when no part has it.
   */
  parts: CommandPart[]
}

/**
 * Parses a tool call's command into the simple commands it runs, each
 * normalised (normalise-command.ts) and read against the understood list
 * (understood.ts). What is not understood, or cannot be known before it
 * runs, is kept as a part with `unknown` set. A command line that runs
 * nothing at all is unknown too, and so is one past a limit of
 * limits.ts (too long, too deep, too large or too slow to parse): refused,
 * never a crash.
 */
export function parseCommand(text: string, limits: Readonly<CommandLimits> = COMMAND_LIMITS): ParsedCommand {
  const parts: CommandPart[] = []
  if (text.length > limits.maxLength) parts.push(unknownPart(text, `it is ${text.length} characters long, more than the ${limits.maxLength} dsh-slack reads`, []))
  else parseScript(text, 0, [], parts, { deadline: performance.now() + limits.maxParseMs, maxDepth: limits.maxTreeDepth, nodesLeft: limits.maxNodes, maxShellDepth: limits.maxShellDepth })
  if (parts.length === 0) parts.push(unknownPart(text, 'it holds no command the parser can see', []))
  readPaths(parts)
  return { parts }
}

/**
 * A backslash at the end of a line inside a word (`git pu\⏎sh`): bash joins
 * the two lines into one word, tree-sitter reads two words. Between words
 * (`git push \⏎  -f`) both agree.
 */
function continuesInsideAWord(text: string): boolean {
  for (let at = text.indexOf('\\\n'); at !== -1; at = text.indexOf('\\\n', at + 1)) {
    let backslashes = 1
    while (text[at - backslashes] === '\\') backslashes += 1
    if (backslashes % 2 === 0) continue
    const before = text[at - backslashes] ?? ' '
    const after = text[at + 2] ?? ' '
    if (!/\s/.test(before) && !/\s/.test(after)) return true
  }
  return false
}

function parseScript(text: string, depth: number, via: string[], into: CommandPart[], budget: ReadBudget & { maxShellDepth: number }): void {
  if (continuesInsideAWord(text)) return void into.push(unknownPart(text, 'a line continuation (a backslash at the end of a line) is inside a word: bash joins the two lines into one word, the parser would read two', via))
  const tree = withShellTree(text, readCommands, budget)
  if ('refused' in tree) return void into.push(unknownPart(text, tree.refused, via))
  const read = tree.read
  if (read.error !== undefined) return void into.push(unknownPart(text, read.error, via))
  for (const command of read.commands) {
    if (command.refused !== undefined) {
      into.push(unknownPart(command.source, command.refused, via))
      continue
    }
    const normalised = normaliseCommand(command, via)
    if (normalised.kind === 'part') {
      const { part } = normalised
      if (part.unknown === undefined) {
        const why = whyNotUnderstood({ program: part.program!, words: part.written, more: part.openEnded ?? false, assignments: normalised.assignments, ...(normalised.programPath !== undefined ? { programPath: normalised.programPath } : {}) })
        if (why !== undefined) part.unknown = why
      }
      into.push(part)
      continue
    }
    const variable = normalised.assignments.find((name) => !understoodVariable(name))
    if (variable !== undefined) into.push(unknownPart(command.source, `it sets ${variable} for the shell it starts: not a variable dsh-slack understands`, normalised.via))
    else if (depth >= budget.maxShellDepth) into.push(unknownPart(command.source, `it nests shells deeper than ${budget.maxShellDepth} levels (${normalised.via.join(' → ')})`, normalised.via))
    else parseScript(normalised.script, depth + 1, normalised.via, into, budget)
  }
}

/**
 * Reads the path operands of programs that take paths (`rm`, `cp`…), for
 * the rules that match them: an absolute path normalised (`//`, `/./`, a
 * trailing `/`), a path with `..` (it climbs from a directory dsh-slack does
 * not know) and, in a command line that changes directory anywhere, any
 * relative path (`cd / && rm -rf usr`) become words only known when it
 * runs, so a rule for `rm -rf /` might match them.
 */
function readPaths(parts: CommandPart[]): void {
  const changesDirectory = parts.some((part) => part.program === 'cd' || part.program === 'pushd' || part.program === 'popd')
  for (const part of parts) {
    if (part.unknown !== undefined || !UNDERSTOOD_PROGRAMS[part.program!]?.paths) continue
    const why: string[] = []
    const path = (word: string | undefined): string | undefined => {
      if (word === undefined) return undefined
      if (word.split('/').includes('..')) return void why.push(`${word} climbs out of a directory dsh-slack does not know`)
      if (!word.startsWith('/')) return changesDirectory && !word.startsWith('~') ? void why.push(`${word} is relative to a directory the command line changes to`) : word
      const normalised = word.replace(/\/(\.\/)+/g, '/').replace(/\/\.$/, '/').replace(/\/+/g, '/')
      return normalised.length > 1 ? normalised.replace(/\/$/, '') : normalised
    }
    part.written = mapOperands(part.written, path)
    part.args = mapOperands(part.args, (word) => (word === undefined ? undefined : path(word)))
    const unique = [...new Set([...(part.unknownWords ?? []), ...why])]
    if (unique.length > 0) part.unknownWords = unique
  }
}

function mapOperands(words: (string | undefined)[], map: (word: string | undefined) => string | undefined): (string | undefined)[] {
  let operands = false
  return words.map((word) => {
    if (word === '--' && !operands) {
      operands = true
      return word
    }
    return operands || word === undefined || !isOption(word) ? map(word) : word
  })
}

/** A part as the glob short form sees it: the program and its normalised arguments, one space apart. */
export function partText(part: CommandPart): string {
  return [part.program ?? '?', ...part.args.map((arg) => arg ?? '?')].join(' ')
}
