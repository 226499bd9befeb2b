import type { WrittenCommand } from './read-commands.js'
import { fromSystemDirectory, GIT_GLOBAL_OPTIONS, whyGitOptionNotUnderstood, whyPathNotUnderstood } from './understood.js'
import { SHELL_VALUED, SHELLS, WRAPPERS, type WrapperSpec } from './wrappers.js'

/**
 * One simple command as a rule sees it: the program that really runs, its
 * arguments with git's global options dropped and bundled short flags split
 * (`-uf` → `-u`, `-f`). `undefined` marks a word only known when it runs.
 */
export interface CommandPart {
  /** The command as written, for `policy explain`. */
  source: string
  /** The program's name (`/usr/bin/git` → `git`); absent when it is not known. */
  program?: string
  /** The arguments after the program, normalised. */
  args: (string | undefined)[]
  /** The arguments as written (not split), for single-dash long options such as `find -name`. */
  written: (string | undefined)[]
  /**
   * Why the command is not understood (decision 0085): its program is not
   * on the understood list (understood.ts), its words are not read as they
   * must be, or it cannot be known before it runs. It may then be anything,
   * so it falls to the strictest rule that could apply. The single signal
   * of "not understood": a part without it is understood.
   */
  unknown?: string
  /** More arguments are added when it runs (`xargs git push` takes them from its input). */
  openEnded?: boolean
  /** Why some of its words are only known when it runs, where the reader can say (`../..` climbs from a directory it does not know). */
  unknownWords?: string[]
  /** The wrappers and shells it was found through, e.g. `sudo`, `bash -c`. */
  via: string[]
}

/**
 * A command, or a command line it hands to a shell (`bash -c`, `eval`,
 * `env -S`), parsed in turn; either way with the variables it sets
 * (`NAME=value`, `env NAME=value`), and for a part the program's path when
 * it was written as one.
 */
export type Normalised = { kind: 'part'; part: CommandPart; assignments: string[]; programPath?: string } | { kind: 'script'; script: string; via: string[]; assignments: string[] }

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/
const BUNDLED_SHORT_FLAGS = /^-[A-Za-z]{2,}$/
const GLOB_CHARS = /[*?[]/

/** `-uf` → `-u -f`, up to a `--` (after it every word is an operand). */
export function splitShortFlags<T extends string | undefined>(words: T[]): (T | string)[] {
  const out: (T | string)[] = []
  let operands = false
  for (const word of words) {
    if (word === '--') operands = true
    if (!operands && word !== undefined && BUNDLED_SHORT_FLAGS.test(word)) out.push(...[...word.slice(1)].map((letter) => `-${letter}`))
    else out.push(word)
  }
  return out
}

export function unknownPart(source: string, why: string, via: string[]): CommandPart {
  return { source, args: [], written: [], unknown: why, via }
}

interface Skipped {
  /** The words after the options. */
  rest: (string | undefined)[]
  /** Names of the `NAME=value` words before the program (env, sudo). */
  assignments: string[]
  /** Values of valued options, by option. */
  values: { option: string; value: string | undefined }[]
  /** A command line given as an option's value (`env -S`). */
  script?: string | undefined
  hasScript?: boolean
  unknown?: string
  /** The option it did not know, when that is why it is unknown. */
  unknownOption?: string
}

/** Skips a wrapper's options (and its assignments or positional words) up to the program it runs. */
function skipOptions(name: string, words: (string | undefined)[], spec: WrapperSpec): Skipped {
  const values: Skipped['values'] = []
  const assignments: string[] = []
  let positional = spec.positional ?? 0
  let at = 0
  const takesValue = (option: string) => spec.valued.includes(option) || (spec.script?.includes(option) ?? false)
  const done = (option: string, value: string | undefined): Skipped | undefined => {
    if (spec.script?.includes(option)) return { rest: [], assignments, values, script: value, hasScript: true }
    values.push({ option, value })
    return undefined
  }
  const unknownOption = (option: string): Skipped => ({ rest: [], assignments, values, unknown: `${name} ${option} is not an option of ${name} dsh-slack understands`, unknownOption: option })
  while (at < words.length) {
    const word = words[at]
    if (word === undefined) return { rest: [], assignments, values, unknown: `an option of ${name} is only known when it runs` }
    if (word === '--') {
      at += 1
      break
    }
    if (spec.assignments && ASSIGNMENT.test(word)) {
      assignments.push(word.slice(0, word.indexOf('=')))
      at += 1
      continue
    }
    if (word.startsWith('--')) {
      const equals = word.indexOf('=')
      const option = equals === -1 ? word : word.slice(0, equals)
      // A flag given a value (`--exec-path=/x`) is not that flag.
      if (spec.flags.includes(option) && equals === -1) {
        at += 1
        continue
      }
      if (!takesValue(option)) return unknownOption(option)
      const value = equals === -1 ? words[at + 1] : word.slice(equals + 1)
      at += equals === -1 ? 2 : 1
      const script = done(option, value)
      if (script) return script
      continue
    }
    if (word.startsWith('-') && word.length > 1) {
      if (spec.numericOption && /^-\d+$/.test(word)) {
        at += 1
        continue
      }
      at += 1
      for (let index = 1; index < word.length; index += 1) {
        const option = `-${word[index]}`
        if (spec.flags.includes(option)) continue
        if (!takesValue(option)) return unknownOption(option)
        const attached = word.slice(index + 1)
        const value = attached !== '' ? attached : words[at]
        if (attached === '') at += 1
        const script = done(option, value)
        if (script) return script
        break
      }
      continue
    }
    if (positional > 0) {
      positional -= 1
      at += 1
      continue
    }
    break
  }
  return { rest: words.slice(at), assignments, values }
}

/** `bash -c STRING`, or a shell that reads its commands from its input, or one that runs a file. */
function shellScript(name: string, words: (string | undefined)[]): { script?: string | undefined; runsScript: boolean; unknown?: string } {
  let command = false
  let at = 0
  while (at < words.length) {
    const word = words[at]
    if (word === undefined) {
      if (command) break
      return { runsScript: false, unknown: `an option of ${name} is only known when it runs` }
    }
    if (word === '--' || word === '-') {
      at += 1
      break
    }
    if (SHELL_VALUED.has(word)) {
      at += 2
      continue
    }
    if (/^[-+]/.test(word) && word.length > 1) {
      if (!word.startsWith('--') && word.slice(1).includes('c')) command = true
      if (!word.startsWith('--') && word.slice(1).includes('s')) return { runsScript: false, unknown: `${name} -s reads the commands it runs from its input` }
      at += 1
      continue
    }
    break
  }
  if (command) return { script: words[at], runsScript: true }
  if (at >= words.length) return { runsScript: false, unknown: `${name} without a script reads the commands it runs from its input` }
  return { runsScript: false }
}

/**
 * What one written command runs: assignments dropped (the reader already
 * left them out), wrappers (`command`, `env`, `sudo`, `nice`, `nohup`,
 * `time`, `timeout`, `xargs`, …) unwrapped, a path reduced to the program's
 * name, git's global options dropped and bundled short flags split; or the
 * command line a shell is given (`bash -c`, `eval`, `env -S`), to be parsed
 * in turn.
 */
export function normaliseCommand(command: WrittenCommand, via: string[] = []): Normalised {
  let words = command.words
  const path = [...via]
  const assignments = [...command.assignments]
  let openEnded = false
  const unknown = (why: string): Normalised => ({ kind: 'part', part: { ...unknownPart(command.source, why, path), ...(openEnded ? { openEnded } : {}) }, assignments })
  for (;;) {
    if (words.length === 0) return unknown('it names no program')
    const first = words[0]
    if (first === undefined) return unknown('its program is only known when it runs (a variable or a substitution)')
    if (GLOB_CHARS.test(first)) return unknown(`its program ${JSON.stringify(first)} is a pattern the shell expands`)
    const program = first.includes('/') ? first.slice(first.lastIndexOf('/') + 1) : first
    const rest = words.slice(1)
    // A wrapper or shell read through must be the real one: `./sudo` may be any program.
    if (first.includes('/') && (WRAPPERS[program] || SHELLS.has(program) || program === 'eval') && !fromSystemDirectory(first)) return unknown(whyPathNotUnderstood(first, program))
    const wrapper = WRAPPERS[program]
    if (wrapper) {
      const skipped = skipOptions(program, rest, wrapper)
      path.push(program)
      assignments.push(...skipped.assignments)
      // `env -u NAME` changes the environment as an assignment does.
      if (program === 'env') for (const { option, value } of skipped.values) if (option === '-u' || option === '--unset') assignments.push(value ?? '(a name only known when it runs)')
      if (skipped.unknown) return unknown(skipped.unknown)
      if (skipped.hasScript) return skipped.script === undefined ? unknown(`${program} -S is given a command line only known when it runs`) : { kind: 'script', script: skipped.script, via: [...path.slice(0, -1), `${program} -S`], assignments }
      if (wrapper.openEnded) openEnded = true
      if (skipped.rest.length === 0) return { kind: 'part', part: { source: command.source, program, args: [], written: [], via: path.slice(0, -1), ...(openEnded ? { openEnded } : {}) }, assignments }
      words = skipped.rest
      continue
    }
    if (SHELLS.has(program)) {
      const shell = shellScript(program, rest)
      if (shell.unknown) return unknown(shell.unknown)
      if (shell.runsScript) return shell.script === undefined ? unknown(`${program} -c is given a command line only known when it runs`) : { kind: 'script', script: shell.script, via: [...path, `${program} -c`], assignments }
    }
    if (program === 'eval') {
      if (rest.some((word) => word === undefined)) return unknown('eval is given words only known when it runs')
      return { kind: 'script', script: rest.join(' '), via: [...path, 'eval'], assignments }
    }
    let args = rest
    if (program === 'git') {
      const skipped = skipOptions('git', rest, GIT_GLOBAL_OPTIONS)
      if (skipped.unknown) return unknown(skipped.unknownOption !== undefined ? whyGitOptionNotUnderstood(skipped.unknownOption) : skipped.unknown)
      args = skipped.rest
    }
    const part: CommandPart = { source: command.source, program, args: splitShortFlags(args), written: args, via: path, ...(openEnded ? { openEnded } : {}), ...(command.unknownWords ? { unknownWords: [...command.unknownWords] } : {}) }
    return { kind: 'part', part, assignments, ...(first.includes('/') ? { programPath: first } : {}) }
  }
}
