/**
 * Reads a sed script closely enough to know it runs nothing and writes no
 * file: GNU sed's `e` command and `s///e` flag run the pattern space as a
 * shell command, and `w`/`W` and `s///w` write to a file. Only scripts made
 * of the commands below are understood; anything else is not.
 */

/** Commands that print, delete, move between lines or quit: no argument, or a number for q/Q/l/L. */
const PLAIN = new Set(['p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'l', '=', 'z', 'F', 'q', 'Q', '{', '}'])
/** Commands whose argument runs to the end of the line: text (a, i, c), a label (:, b, t, T), a file read (r, R). */
const TO_END_OF_LINE = new Set(['a', 'i', 'c', ':', 'b', 't', 'T', 'r', 'R'])
/** Flags of `s` that neither run nor write: g, p, i/I, m/M and a number. */
const SAFE_S_FLAGS = /^[gpiImM0-9]*$/

/** Why the script is not understood, or `undefined` when it is. */
export function whyNotUnderstoodSed(script: string): string | undefined {
  let at = 0
  const blank = () => {
    while (at < script.length && /[\s;]/.test(script[at]!)) at += 1
  }
  /** Reads a delimited part (`/re/`, an `s` pattern or replacement), with backslash escapes. */
  const delimited = (delimiter: string): boolean => {
    while (at < script.length && script[at] !== delimiter) {
      if (script[at] === '\n') return false
      at += script[at] === '\\' ? 2 : 1
    }
    if (at >= script.length) return false
    at += 1
    return true
  }
  const address = (): boolean => {
    if (/\d/.test(script[at] ?? '')) {
      while (/[\d~]/.test(script[at] ?? '')) at += 1
      return true
    }
    if (script[at] === '$') {
      at += 1
      return true
    }
    if (script[at] === '/' || script[at] === '\\') {
      const delimiter = script[at] === '\\' ? script[at + 1] : '/'
      at += script[at] === '\\' ? 2 : 1
      if (delimiter === undefined || !delimited(delimiter)) return false
      while (/[IM]/.test(script[at] ?? '')) at += 1
      return true
    }
    return true
  }
  for (blank(); at < script.length; blank()) {
    if (script[at] === '#') {
      while (at < script.length && script[at] !== '\n') at += 1
      continue
    }
    if (!address()) return 'sed is given an address it cannot read'
    if (script[at] === ',') {
      at += 1
      if (!address()) return 'sed is given an address it cannot read'
    }
    while (script[at] === ' ' || script[at] === '!') at += 1
    const command = script[at]
    if (command === undefined) return 'sed is given an address without a command'
    at += 1
    if (PLAIN.has(command)) {
      while (/[\d ]/.test(script[at] ?? '')) at += 1
      continue
    }
    if (TO_END_OF_LINE.has(command)) {
      while (at < script.length && script[at] !== '\n' && !(command !== 'a' && command !== 'i' && command !== 'c' && script[at] === ';')) at += 1
      continue
    }
    if (command === 's' || command === 'y') {
      const delimiter = script[at]
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return `sed ${command} has no delimiter`
      at += 1
      if (!delimited(delimiter) || !delimited(delimiter)) return `sed ${command} is not closed`
      const flagsStart = at
      while (at < script.length && !/[\s;}]/.test(script[at]!)) at += 1
      const flags = script.slice(flagsStart, at)
      if (command === 's' && !SAFE_S_FLAGS.test(flags)) return `sed s///${flags} ${/e/.test(flags) ? 'runs the result as a shell command' : /w/.test(flags) ? 'writes to a file' : 'has a flag dsh-slack does not understand'}`
      continue
    }
    if (command === 'e') return 'sed e runs a shell command'
    if (command === 'w' || command === 'W') return `sed ${command} writes to a file`
    return `sed ${command} is not a sed command dsh-slack understands`
  }
  return undefined
}
