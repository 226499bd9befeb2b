import { isOption, readOptions, type OptionList, type Reading, type Words } from './read-arguments.js'
import { whyNotUnderstoodSed } from './read-sed-script.js'

/**
 * The readings of the programs on the understood list (understood.ts)
 * whose words take more than a list of options to read: what each accepts
 * is given by the list, so the list stays the one place that says what is
 * understood.
 */

/** find: its start points, then an expression of the given primaries only (each with the words it takes); any other (`-exec`, `-ok`, `-delete`, `-fprint`…) is not understood. */
export const findReading = (primaries: Readonly<Record<string, number>>): Reading => (words, more) => {
  if (more) return 'find is given more words when it runs, which could be -exec or -delete'
  let at = 0
  while (words[at] === '-H' || words[at] === '-L' || words[at] === '-P') at += 1
  for (; at < words.length; at += 1) {
    const word = words[at]
    if (word === undefined) return 'find is given a word only known when it runs, which could be -exec or -delete'
    if (word.startsWith('-') || ['!', '(', ')', ','].includes(word)) {
      const arity = primaries[word] ?? (/^-newer[aBcmt][aBcmt]$/.test(word) ? 1 : undefined)
      if (arity === undefined) return `find ${word} is not a find test or action dsh-slack understands${/^-(exec|execdir|ok|okdir)$/.test(word) ? ' (it runs a command)' : word === '-delete' ? ' (it deletes what it finds)' : ''}`
      if (words.slice(at + 1, at + 1 + arity).includes(undefined)) return `find ${word} is given a word only known when it runs`
      at += arity
    }
  }
  return undefined
}

/** sed: its script (every `-e`, else the first operand) read by read-sed-script.ts; with `-i`, the files it rewrites must be known. `flags` are its options without a value. */
export const sedReading = (flags: ReadonlySet<string>): Reading => (words, more) => {
  const scripts: (string | undefined)[] = []
  const rest: (string | undefined)[] = []
  let inPlace = false
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at]
    if (word === '--') {
      rest.push(...words.slice(at + 1))
      break
    }
    if (word === undefined || !isOption(word)) {
      rest.push(word)
      continue
    }
    if (word.startsWith('--')) {
      const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
      if (flags.has(word)) continue
      if (name === '--in-place') inPlace = true
      else if (name === '--expression') {
        scripts.push(word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[(at += 1)])
      } else if (name === '--line-length') {
        if (!word.includes('=')) at += 1
      } else return name === '--file' ? 'sed --file reads its script from a file' : `sed ${name} is not an option dsh-slack understands`
      continue
    }
    // A bundle of short options: flags, then at most one that takes the rest of the word (or the next word).
    for (let index = 1; index < word.length; index += 1) {
      const letter = word[index]!
      if (flags.has(`-${letter}`)) continue
      const attached = word.slice(index + 1)
      if (letter === 'i') inPlace = true
      else if (letter === 'e') scripts.push(attached !== '' ? attached : words[(at += 1)])
      else if (letter === 'l') {
        if (attached === '') at += 1
      } else return letter === 'f' ? 'sed -f reads its script from a file' : `sed -${letter} is not an option dsh-slack understands`
      break
    }
  }
  if (scripts.length === 0) scripts.push(rest.shift())
  for (const script of scripts) {
    if (script === undefined) return 'sed is given a script only known when it runs'
    const why = whyNotUnderstoodSed(script)
    if (why !== undefined) return why
  }
  if (inPlace && (more || rest.includes(undefined))) return 'sed -i rewrites files, and is given a file only known when it runs'
  return undefined
}

/** set: only the given letters and `-o` names (`set -euo pipefail`); no positional parameters, no other option. */
export const setReading = (letters: RegExp, names: ReadonlySet<string>): Reading => (words, more) => {
  if (more) return 'set is given more words when it runs'
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at]
    if (word === undefined) return 'set is given a word only known when it runs'
    if (/^[-+][euxv]*o$/.test(word)) {
      const name = words[at + 1]
      if (name === undefined || !names.has(name)) return `set -o ${name ?? '(a word only known when it runs)'} is not a shell option dsh-slack understands`
      at += 1
      continue
    }
    if (!letters.test(word)) return `set ${word} is not a shell option dsh-slack understands (only -e, -u, -x, -v and -o ${[...names].join('/')})`
  }
  return undefined
}

/** cd: at most one directory, known when it is read (`cd -` and `cd "$X"` go where dsh-slack cannot follow). */
export const readCd: Reading = (words, more) => {
  if (more) return 'cd is given more words when it runs'
  const operands = words.filter((word) => word === undefined || !['-L', '-P', '-e', '-@'].includes(word))
  if (operands.includes(undefined)) return 'cd goes to a directory only known when it runs'
  if (operands.includes('-')) return 'cd - goes back to a directory dsh-slack does not know'
  if (operands.length > 1) return 'cd is given more than one directory'
  return undefined
}

/** printf: any format; `-v NAME` sets a variable, which must be one dsh-slack understands. */
export const printfReading = (understoodVariable: (name: string) => boolean): Reading => (words) => {
  const at = words.indexOf('-v')
  if (at === -1) return undefined
  const name = words[at + 1]
  return name !== undefined && understoodVariable(name) ? undefined : `printf -v sets ${name ?? 'a variable only known when it runs'}, which is not a variable dsh-slack understands`
}

/** Reads a program whose options are a closed list, then its operands (`operands` says why not, or nothing). */
export function closedOptions(program: string, list: OptionList, operands: (operands: Words) => string | undefined = () => undefined): Reading {
  return (words, more) => {
    if (more) return `${program} is given more words when it runs, which could be options dsh-slack does not understand`
    if (words.includes(undefined)) return `${program} is given a word only known when it runs, which could be an option dsh-slack does not understand`
    const read = readOptions(program, words, list)
    return 'why' in read ? read.why : operands(read.operands)
  }
}

/** A package manager's command line: its own options, one of its understood commands, and what that command may be given. */
export interface PackageCommands {
  options: OptionList
  /** Each understood command (aliases included) and how many operands it takes: `script` is a package.json script name (or none), `none` nothing, `names` any package names. */
  commands: Readonly<Record<string, 'script' | 'none' | 'names'>>
  /** What a bare invocation does (`yarn` installs), when it is understood. */
  bare?: true
}

export function packageManager(program: string, spec: PackageCommands): Reading {
  return closedOptions(program, spec.options, (operands) => {
    const [command, ...rest] = operands
    if (command === undefined) return spec.bare || operands.length === 0 ? undefined : `${program} is given a command only known when it runs`
    const takes = spec.commands[command]
    if (takes === undefined) return `${program} ${command} is not a ${program} command dsh-slack understands${['exec', 'x', 'dlx', 'npx'].includes(command) ? ' (it runs the program it is given)' : ''}`
    if (takes === 'none' && rest.length > 0) return `${program} ${command} is given ${rest.join(' ')}: it installs or runs what it names, which dsh-slack cannot read`
    if (takes === 'script' && rest.length > 1) return `${program} ${command} ${rest[0]} hands ${rest.slice(1).join(' ')} to the script, whose program dsh-slack cannot read`
    return undefined
  })
}

/** make: targets of the repository's Makefile, with the given options only (`-f`, another makefile, and `--eval` are not among them); no `VAR=value`, which can replace a recipe's commands. */
export function makeReading(options: OptionList): Reading {
  const read = closedOptions('make', options, (operands) => {
    const assignment = operands.find((word) => word !== undefined && word.includes('='))
    if (assignment !== undefined) return `make ${assignment} sets a make variable, which can change the commands a recipe runs`
    return undefined
  })
  // `-jN`, `-j N` and `--jobs=N` are read before the closed list (a number attached or following).
  return (words, more) => read(words.flatMap((word, at) => (word !== undefined && (/^-j\d+$/.test(word) || /^--jobs(=\d+)?$/.test(word)) ? [] : word !== undefined && /^\d+$/.test(word) && words[at - 1] === '-j' ? [] : [word])), more)
}
