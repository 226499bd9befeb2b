import { normaliseCommand, unknownPart, type CommandPart } from './normalise-command.js'
import { readCommands } from './read-commands.js'
import { withShellTree } from './shell-parser.js'

/** How deep `bash -c '… bash -c "…"'` (and `eval`, `env -S`) is followed before the rest counts as unknown. */
export const MAX_SHELL_DEPTH = 3

/** A command line as a policy sees it: the simple commands it runs. */
export interface ParsedCommand {
  parts: CommandPart[]
}

/**
 * Parses a tool call's command into the simple commands it runs, each
 * normalised (normalise-command.ts). What cannot be known before it runs
 * is kept as a part with `unknown` set: it falls to the strictest rule that
 * could apply. A command line that runs nothing at all is unknown too.
 */
export function parseCommand(text: string): ParsedCommand {
  const parts: CommandPart[] = []
  parseScript(text, 0, [], parts)
  if (parts.length === 0) parts.push(unknownPart(text, 'it holds no command the parser can see', []))
  return { parts }
}

function parseScript(text: string, depth: number, via: string[], into: CommandPart[]): void {
  const read = withShellTree(text, readCommands)
  if (read === undefined) return void into.push(unknownPart(text, 'the shell parser is not loaded yet', via))
  if (read.error !== undefined) return void into.push(unknownPart(text, read.error, via))
  for (const command of read.commands) {
    const normalised = normaliseCommand(command, via)
    if (normalised.kind === 'part') into.push(normalised.part)
    else if (depth >= MAX_SHELL_DEPTH) into.push(unknownPart(command.source, `it nests shells deeper than ${MAX_SHELL_DEPTH} levels (${normalised.via.join(' → ')})`, normalised.via))
    else parseScript(normalised.script, depth + 1, normalised.via, into)
  }
}

/** A part as the glob short form sees it: the program and its normalised arguments, one space apart. */
export function partText(part: CommandPart): string {
  return [part.program ?? '?', ...part.args.map((arg) => arg ?? '?')].join(' ')
}
