/**
 * A one-line shell command laid out for a narrow screen: broken between
 * its words into lines that end with ` \` (the shell's own line
 * continuation) and go on indented, so a phone shows one command across
 * several lines instead of wrapping it mid-line, where `pnpm` / `-r run
 * migrate` would read as two commands. The shell runs the laid-out text
 * exactly as the line: a backslash before a line break outside quotes is
 * removed, and the spaces around it only separate words.
 *
 * Only where that holds for certain: a command that already has more than
 * one line, or holds anything that could make a break mean something else
 * (a comment, a here-document, a backslash, command substitution, an open
 * quote), is left exactly as written and wraps as Slack wraps it.
 */

/** Characters after which the layout cannot know what a line break would mean. */
const UNSAFE = /[\n\r#\\`]|\$[({]|<<|[<>]\(/

/** The command's words: runs of text between unquoted spaces or tabs, quotes kept whole; undefined when a quote never closes. */
function wordsOf(command: string): string[] | undefined {
  const words: string[] = []
  let word = ''
  let quote: "'" | '"' | undefined
  for (const char of command) {
    if (quote) {
      word += char
      if (char === quote) quote = undefined
    } else if (char === "'" || char === '"') {
      quote = char
      word += char
    } else if (char === ' ' || char === '\t') {
      if (word !== '') words.push(word)
      word = ''
    } else {
      word += char
    }
  }
  if (quote) return undefined
  if (word !== '') words.push(word)
  return words
}

/** `command` in lines of at most `width` characters where its words allow (a longer word has a line of its own). */
export function commandAsLines(command: string, width: number): string {
  if (command.length <= width || UNSAFE.test(command)) return command
  const words = wordsOf(command)
  if (!words || words.length < 2) return command
  const CONTINUED = ' \\'
  const INDENT = '  '
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    const next = line === '' ? (lines.length === 0 ? word : `${INDENT}${word}`) : `${line} ${word}`
    if (line !== '' && next.length + CONTINUED.length > width) {
      lines.push(line)
      line = `${INDENT}${word}`
    } else {
      line = next
    }
  }
  lines.push(line)
  return lines.join(`${CONTINUED}\n`)
}
