import { globToRegExp } from '../glob.js'
import { splitShortFlags, type CommandPart } from './normalise-command.js'
import { partText } from './parse-command.js'

/**
 * What a rule says about one simple command, in command terms. Every field
 * given must hold; each lists alternatives.
 */
export interface CommandShape {
  /** Program name globs (`git`, `rm`): the name, never the path. */
  program?: string[]
  /** The first operand after the program (`push` of `git push`). */
  subcommand?: string[]
  /** Any of these options is present: `-f` also inside `-uf`; `--force` also as `--force=…` or abbreviated (`--forc`). */
  flags?: string[]
  /** Any operand after the subcommand (or the program) matches one of these globs (`+*`, `:*`). */
  args?: string[]
}

/** A glob over the normalised simple command (the short form), or a shape. */
export type CommandPattern = string | CommandShape

/** Whether a pattern matches a part: `maybe` when words only known at run time could make it match. */
export type Fit = 'yes' | 'maybe' | 'no'

/** A glob written the way commands are normalised: single spaces, bundled short flags split (`rm -rf *` → `rm -r -f *`). */
export function normaliseGlob(glob: string): string {
  return splitShortFlags(glob.trim().split(/\s+/)).join(' ')
}

function both(a: Fit, b: Fit): Fit {
  if (a === 'no' || b === 'no') return 'no'
  return a === 'yes' && b === 'yes' ? 'yes' : 'maybe'
}

function literalHead(glob: string): string {
  const wildcard = glob.search(/[*?]/)
  return wildcard === -1 ? glob : glob.slice(0, wildcard)
}

function fitGlob(glob: string, part: CommandPart): Fit {
  const normalised = normaliseGlob(glob)
  const firstUnknown = part.args.indexOf(undefined)
  if (firstUnknown === -1 && !part.openEnded) return globToRegExp(normalised).test(partText(part)) ? 'yes' : 'no'
  // Up to the first unknown word the text is known; after it, anything.
  const known = [part.program!, ...(firstUnknown === -1 ? part.args : part.args.slice(0, firstUnknown))].join(' ') + ' '
  const head = literalHead(normalised)
  if (normalised === `${head}*` && known.startsWith(head)) return 'yes'
  return known.startsWith(head) || head.startsWith(known) ? 'maybe' : 'no'
}

/** The operands: words that are not options, and every word after `--`. */
function operands(words: (string | undefined)[]): (string | undefined)[] {
  const dashes = words.indexOf('--')
  const before = dashes === -1 ? words : words.slice(0, dashes)
  const after = dashes === -1 ? [] : words.slice(dashes + 1)
  return [...before.filter((word) => word === undefined || !word.startsWith('-') || word === '-'), ...after]
}

function optionsOf(words: (string | undefined)[]): (string | undefined)[] {
  const dashes = words.indexOf('--')
  return (dashes === -1 ? words : words.slice(0, dashes)).filter((word) => word === undefined || (word.startsWith('-') && word !== '-'))
}

/** Whether an option as written is the flag: exact, `--flag=value`, or a long option abbreviated the way git and getopt_long accept. */
function isFlag(option: string, flag: string): boolean {
  if (option === flag) return true
  if (!flag.startsWith('--')) return false
  const name = option.includes('=') ? option.slice(0, option.indexOf('=')) : option
  return name === flag || (name.startsWith('--') && name.length >= 3 && flag.startsWith(name))
}

function fitAny(values: (string | undefined)[], open: boolean, test: (value: string) => boolean): Fit {
  if (values.some((value) => value !== undefined && test(value))) return 'yes'
  return open || values.includes(undefined) ? 'maybe' : 'no'
}

function fitShape(shape: CommandShape, part: CommandPart): Fit {
  const open = part.openEnded ?? false
  let fit: Fit = shape.program ? (shape.program.some((glob) => globToRegExp(glob).test(part.program!)) ? 'yes' : 'no') : 'yes'
  let rest = part.args
  let written = part.written
  if (shape.subcommand) {
    // The subcommand is the first operand; the words after it are its own.
    const at = part.args.findIndex((word) => word === undefined || word === '--' || !word.startsWith('-'))
    const first = at === -1 || part.args[at] === '--' ? null : part.args[at]
    const subcommand: Fit = first === null ? (open ? 'maybe' : 'no') : first === undefined ? 'maybe' : shape.subcommand.some((glob) => globToRegExp(glob).test(first)) ? 'yes' : 'no'
    fit = both(fit, subcommand)
    rest = part.args.slice(at + 1)
    written = part.written.slice(part.written.indexOf(first ?? '') + 1)
  }
  if (shape.flags) {
    const options = [...optionsOf(rest), ...optionsOf(written)]
    fit = both(fit, fitAny(options, open, (option) => shape.flags!.some((flag) => isFlag(option, flag))))
  }
  if (shape.args) fit = both(fit, fitAny(operands(rest), open, (operand) => shape.args!.some((glob) => globToRegExp(glob).test(operand))))
  return fit
}

/**
 * How a rule's command patterns fit one simple command: `yes` when one
 * surely matches, `maybe` when a word only known at run time could make
 * one match, else `no`. A part that is unknown altogether may be anything.
 */
export function fitCommand(patterns: CommandPattern[], part: CommandPart): Fit {
  if (part.unknown !== undefined) return 'maybe'
  let fit: Fit = 'no'
  for (const pattern of patterns) {
    const one = typeof pattern === 'string' ? fitGlob(pattern, part) : fitShape(pattern, part)
    if (one === 'yes') return 'yes'
    if (one === 'maybe') fit = 'maybe'
  }
  return fit
}
