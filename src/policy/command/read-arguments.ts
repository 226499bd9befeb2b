/**
 * Small readers of a program's arguments, for the understood list
 * (understood.ts): each says why it does not understand them, or nothing.
 * Words are as the shell passes them; `undefined` is a word only known when
 * the command runs (a variable, a substitution, a glob).
 */
export type Words = readonly (string | undefined)[]

/**
 * Reads one program's words (those after its name). `more` is set when the
 * program gets further words at run time (xargs). Returns why it does not
 * understand them, or `undefined` when it does.
 */
export type Reading = (words: Words, more: boolean) => string | undefined

/** A reading for a program none of whose options or operands runs anything or changes a later command. */
export const anyArguments: Reading = () => undefined

/** An option word: `-x`, `-abc`, `--long`, `--long=value` (not `-` alone, nor a negative number). */
export function isOption(word: string): boolean {
  return word.length > 1 && word.startsWith('-') && !/^-\d+$/.test(word)
}

/** The words before `--` (after it every word is an operand). */
export function beforeDashes(words: Words): Words {
  const at = words.indexOf('--')
  return at === -1 ? words : words.slice(0, at)
}

/**
 * Whether an option word is `option` as a program may accept it: a long
 * option exactly, with `=value`, or abbreviated (getopt_long and git accept
 * any unambiguous prefix); a short option alone, bundled or with its value
 * attached (`-x`, `-ax`, `-xvalue`). Bundles are read generously: any word
 * whose letters include it counts, so a reading errs towards not understood.
 */
export function namesOption(word: string, option: string): boolean {
  if (option.startsWith('--')) {
    if (!word.startsWith('--')) return false
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word
    return name === option || (name.length >= 3 && option.startsWith(name))
  }
  return !word.startsWith('--') && isOption(word) && word.slice(1).includes(option.slice(1))
}

/**
 * A reading for a program that understands every option but these, each of
 * which runs a program or changes what a later command does; a word only
 * known when it runs might be one of them.
 */
export function withoutOptions(program: string, dangers: Readonly<Record<string, string>>): Reading {
  const options = Object.keys(dangers)
  return (words, more) => {
    const read = beforeDashes(words)
    for (const word of read) {
      if (word === undefined) return `${program} is given a word only known when it runs, which could be ${options.join(' or ')}`
      const danger = options.find((option) => namesOption(word, option))
      if (danger !== undefined) return `${program} ${danger} ${dangers[danger]}`
    }
    if (more) return `${program} is given more words when it runs, which could be ${options.join(' or ')}`
    return undefined
  }
}

/** An option list for `readOptions`: options without a value, and options whose value follows. */
export interface OptionList {
  flags: readonly string[]
  valued: readonly string[]
}

/** What `readOptions` found: the operands in order, or why it does not understand the words. */
export type ReadOptions = { operands: Words } | { why: string }

/**
 * Reads words against a closed list of options: any option not listed is
 * not understood (it might run something, or take a value read as an
 * operand). Options and operands may mix; after `--` all are operands.
 * Long options must be written in full: an abbreviation is not understood.
 */
export function readOptions(program: string, words: Words, list: OptionList): ReadOptions {
  const operands: (string | undefined)[] = []
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at]
    if (word === '--') {
      operands.push(...words.slice(at + 1))
      break
    }
    if (word === undefined || !isOption(word)) {
      operands.push(word)
      continue
    }
    const equals = word.indexOf('=')
    const name = word.startsWith('--') && equals !== -1 ? word.slice(0, equals) : word
    if (list.flags.includes(name) && name === word) continue
    if (list.valued.includes(name)) {
      if (name === word) at += 1
      continue
    }
    // A short option with its value attached (`-w web`, `-wweb`).
    const short = word.startsWith('--') ? undefined : list.valued.find((option) => option.length === 2 && word.startsWith(option))
    if (short !== undefined) continue
    return { why: `${program} ${name} is not an option dsh-slack understands` }
  }
  return { operands }
}

/**
 * A reading for a program that writes to files named in its words (`cp`,
 * `tee`, `sed -i`): every word must be known, since a word only known when it
 * runs could name git's configuration or hooks, or expand into options.
 */
export function writesKnownFiles(program: string, then: Reading = anyArguments): Reading {
  return (words, more) => {
    if (more || words.includes(undefined)) return `${program} writes to files, and is given a word only known when it runs (it could name any file, or be an option)`
    return then(words, more)
  }
}

/** The words that are not options, and every word after `--`. */
export function operandsOf(words: Words): Words {
  const at = words.indexOf('--')
  const before = at === -1 ? words : words.slice(0, at)
  const after = at === -1 ? [] : words.slice(at + 1)
  return [...before.filter((word) => word === undefined || !isOption(word)), ...after]
}
