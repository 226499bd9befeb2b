import type { ShellNode } from './shell-parser.js'
import { BRACE_EXPANSION, isGlob, wordValue } from './word-value.js'
import { namesGitFile, understoodVariable, writtenLikeGitFile } from './understood.js'

/**
 * One simple command as written: its words as the shell will pass them
 * (quotes removed, escapes applied), `undefined` for a word whose value is
 * only known when it runs (a variable, a substitution, a glob, a brace
 * expansion).
 */
export interface WrittenCommand {
  /** The command's own text, for `policy explain`. */
  source: string
  words: (string | undefined)[]
  /** The variables it sets for itself (`NAME=value git …`). */
  assignments: string[]
  /** Why words of it are only known when it runs, for `policy explain` (`* is a pattern the shell expands`). */
  unknownWords?: string[]
  /**
   * Why the reader does not understand it: a shell construct it does not
   * read, a variable it sets, a file it writes that is only known when it
   * runs, or one of git's own files. It then falls to the strictest rule.
   */
  refused?: string
}

/** What a script holds: every simple command anywhere in it, in order. */
export interface ReadScript {
  commands: WrittenCommand[]
  /** Set when the parser could not read all of it: the script is then unknown. */
  error?: string
}

/**
 * Every simple command in the tree: through `;`, `&&`, `||`, `|`, `&`,
 * subshells, braces, newlines, loops, conditionals, function bodies and
 * command or process substitutions (what runs inside `$(…)` is a command
 * too, as well as making the word it sits in unknown).
 *
 * The reader knows the shell's constructs it reads, and only those: any
 * other node of the tree (arithmetic on a variable, a C-style `for`, an
 * extended glob as a command, `${x:=…}`, `${x@P}`) is refused, so the
 * command line falls to the strictest rule (decision 0085). Its recursion
 * is bounded by the tree's depth, which shell-parser.ts caps.
 */
export function readCommands(root: ShellNode): ReadScript {
  if (root.hasError) return { commands: [], error: `the shell parser could not read it (${firstError(root) ?? 'a syntax error'})` }
  const commands: WrittenCommand[] = []
  new Reader(commands).visit(root)
  return { commands }
}

/** Statements and lists whose named children are statements (or words, read as such). */
const STRUCTURE = new Set(['program', 'list', 'pipeline', 'subshell', 'compound_statement', 'if_statement', 'elif_clause', 'else_clause', 'while_statement', 'do_group', 'case_statement', 'case_item', 'function_definition', 'negated_command', 'variable_assignments', 'heredoc_body', 'string', 'translated_string', 'concatenation', 'simple_expansion', 'array'])
/** Words and parts of words with nothing inside to read. */
const LEAVES = new Set(['word', 'number', 'raw_string', 'ansi_c_string', 'string_content', 'special_variable_name', 'variable_name', 'file_descriptor', 'test_operator', 'regex', 'extglob_pattern', 'brace_expression', 'comment', 'heredoc_start', 'heredoc_end', 'heredoc_content'])
/** Redirections that write to their target (`>&` and `<>` too, when the target is a file). */
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&'])
/** `[[ … ]]` comparisons that evaluate their operands as arithmetic. */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
/** Operators of `${…}` that only read the variable. Not: `:=`/`=` (assign), `@` (transformations, `@P` runs commands), `:` (an offset: arithmetic). */
const READING_EXPANSION = new Set(['${', '}', '#', '!', ':-', '-', ':+', '+', ':?', '?', '##', '%', '%%', '/', '//', '/#', '/%', '^', '^^', ',', ',,'])

const ARITHMETIC = 'arithmetic, which can run a command hidden in a variable\'s value'

/** Why a construct not read here is not understood. */
function constructWhy(type: string): string {
  if (type === 'c_style_for_statement') return `a C-style for loop evaluates ${ARITHMETIC}`
  if (['arithmetic_expansion', 'binary_expression', 'unary_expression', 'ternary_expression', 'postfix_expression', 'parenthesized_expression', 'subscript'].includes(type)) return `it evaluates ${ARITHMETIC}`
  return `it uses a shell construct dsh-slack does not read (${type.replace(/_/g, ' ')})`
}

class Reader {
  /** While a word is read, where a refusal inside it goes: the command the word belongs to. */
  private sink: ((why: string) => void) | undefined
  /** Redirections tree-sitter hung on a list or pipeline, by the id of the last command they belong to. */
  private readonly trailing = new Map<number, ShellNode[]>()

  constructor(private readonly into: WrittenCommand[]) {}

  private refuse(node: ShellNode, why: string): void {
    if (this.sink) return this.sink(why)
    this.into.push({ source: node.text, words: [], assignments: [], refused: why })
  }

  /** Reads `node` with refusals going to `sink` (undefined: each becomes a command line of its own, as statements do). */
  private within(sink: ((why: string) => void) | undefined, read: () => void): void {
    const outer = this.sink
    this.sink = sink
    try {
      read()
    } finally {
      this.sink = outer
    }
  }

  visit(node: ShellNode): void {
    const type = node.type
    if (!node.isNamed) return
    if (LEAVES.has(type)) return
    // What runs inside a substitution is statements again, whatever word it sits in.
    if (type === 'command_substitution' || type === 'process_substitution') return this.within(undefined, () => this.children(node))
    if (STRUCTURE.has(type)) return this.children(node)
    switch (type) {
      case 'command':
        return this.command(node, this.trailing.get(node.id) ?? [])
      case 'redirected_statement':
        return this.redirected(node)
      case 'variable_assignment':
        return this.assignment(node)
      case 'declaration_command':
        return this.declaration(node)
      case 'unset_command':
        return this.unset(node)
      case 'for_statement':
        return this.forLoop(node)
      case 'test_command':
      case 'binary_expression':
      case 'unary_expression':
      case 'parenthesized_expression':
        return this.test(node)
      case 'expansion':
        return this.expansion(node)
      case 'arithmetic_expansion':
        return this.arithmetic(node)
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect': {
        const why = this.redirect(node, []).refused
        if (why !== undefined) this.refuse(node, why)
        return
      }
      default:
        return this.refuse(node, constructWhy(type))
    }
  }

  private children(node: ShellNode): void {
    for (const child of node.children) if (child) this.visit(child)
  }

  /** A simple command: its assignments, words and redirections (`extra` are those of an enclosing redirected statement). */
  private command(node: ShellNode, extra: ShellNode[]): void {
    const command: WrittenCommand = { source: node.text, words: [], assignments: [] }
    this.into.push(command)
    const refuse = (why: string | undefined) => void (why !== undefined && (command.refused ??= why))
    for (const child of [...node.children, ...extra]) {
      if (!child || !child.isNamed) continue
      if (child.type === 'variable_assignment') {
        const name = child.childForFieldName('name')
        if (name?.type !== 'variable_name') refuse(constructWhy(name?.type ?? 'subscript'))
        else command.assignments.push(name.text)
        refuse(this.value(child.childForFieldName('value')))
      } else if (child.type === 'file_redirect' || child.type === 'heredoc_redirect' || child.type === 'herestring_redirect') {
        const read = this.redirect(child, command.words)
        refuse(read.refused)
      } else if (child.type === 'comment') continue
      else {
        const word = child.type === 'command_name' ? child.children.find((one) => one?.isNamed) ?? child : child
        const value = this.word(word, refuse)
        command.words.push(value)
        if (value === undefined) (command.unknownWords ??= []).push(whyUnknown(word))
      }
    }
    const named = command.words.find((word) => word !== undefined && namesGitFile(word))
    if (named !== undefined) refuse(gitFileWhy(named))
  }

  /**
   * A redirected statement: a simple command gets its redirections (and the
   * words tree-sitter reads as more targets). tree-sitter also hangs a
   * redirection written after the last command of a list or pipeline on the
   * whole of it (`a || b 2>/dev/null c`), where bash gives it, and its
   * words, to that last command. Anything else is read with them.
   */
  private redirected(node: ShellNode): void {
    const body = node.childForFieldName('body')
    const redirects = node.children.filter((child): child is ShellNode => child !== null && child.isNamed && child.id !== body?.id)
    if (body?.type === 'command') return this.command(body, redirects)
    const last = body ? lastCommandOf(body) : undefined
    if (body && last) {
      this.trailing.set(last.id, redirects)
      return this.visit(body)
    }
    if (body) this.visit(body)
    for (const redirect of redirects) {
      const extra: (string | undefined)[] = []
      const why = this.redirect(redirect, extra).refused ?? (extra.length > 0 ? 'words follow a redirection of a compound command' : undefined)
      if (why !== undefined) this.refuse(redirect, why)
    }
  }

  /**
   * One redirection. tree-sitter reads the words after a redirection's
   * target as more targets (`git >/dev/null push -f` is `git` with targets
   * `/dev/null push -f`), where bash passes them to the command: they are
   * added to `words`.
   */
  private redirect(node: ShellNode, words: (string | undefined)[]): { refused?: string } {
    let refused: string | undefined
    const refuse = (why: string | undefined) => void (why !== undefined && (refused ??= why))
    if (node.type !== 'file_redirect') {
      for (const child of node.children) if (child && child.isNamed && child.type !== 'heredoc_start') this.visit(child)
      return refused === undefined ? {} : { refused }
    }
    const operator = node.children.find((child) => child !== null && !child.isNamed)?.text ?? ''
    const destinations = node.childrenForFieldName('destination').filter((child): child is ShellNode => child !== null)
    // `3>&-` closes a descriptor and takes no target: what follows it is the command's (`git push 3>&- +main`).
    const closes = operator === '>&-' || operator === '<&-'
    const target = closes ? undefined : destinations[0]
    const more = closes ? destinations : destinations.slice(1)
    if (target) {
      const value = this.word(target, refuse)
      const duplicate = (operator === '>&' || operator === '<&') && (target.type === 'number' || value === '-')
      if (WRITES.has(operator) && !duplicate) {
        if (value === undefined) refuse('it writes to a file only known when it runs (it could be git\'s configuration or hooks)')
        else if (namesGitFile(value)) refuse(gitFileWhy(value))
      }
    }
    for (const word of more) words.push(this.word(word, refuse))
    return refused === undefined ? {} : { refused }
  }

  /** A word's value, after reading what runs inside it (substitutions) and refusing what it does not understand. */
  private word(node: ShellNode, refuse: (why: string | undefined) => void): string | undefined {
    // A refusal inside a word (arithmetic, `${x:=…}`) refuses the command the word belongs to.
    this.within(refuse, () => this.visit(node))
    const value = wordValue(node)
    // A value only known when it runs, written like one of git's files: `"$HOME/.gitconfig"`.
    if (value === undefined && writtenLikeGitFile(node.text)) refuse(gitFileWhy(node.text))
    return value
  }

  /** An assignment's value: read like a word; one naming git's files is refused. */
  private value(node: ShellNode | null): string | undefined {
    if (!node) return undefined
    let refused: string | undefined
    const value = this.word(node, (why) => void (refused ??= why))
    if (refused === undefined && value !== undefined && namesGitFile(value)) return gitFileWhy(value)
    return refused
  }

  /** `NAME=value` on its own (or in `export`, `local`…): a variable must be one dsh-slack understands. */
  private assignment(node: ShellNode): void {
    const name = node.childForFieldName('name')
    if (name?.type !== 'variable_name') return this.refuse(node, constructWhy(name?.type ?? 'subscript'))
    const why = this.value(node.childForFieldName('value'))
    if (!understoodVariable(name.text)) return this.refuse(node, `it sets ${name.text}, not a variable dsh-slack understands: it may change what a later command does`)
    if (why !== undefined) this.refuse(node, why)
  }

  /** `export`, `declare`, `local`, `readonly`, `typeset`: only `-x`, `-r` and `-p`, and variables dsh-slack understands. */
  private declaration(node: ShellNode): void {
    const keyword = node.children.find((child) => child !== null && !child.isNamed)?.text ?? 'declare'
    for (const child of node.children) {
      if (!child || !child.isNamed) continue
      if (child.type === 'variable_assignment') this.assignment(child)
      else if (child.type === 'variable_name') {
        if (!understoodVariable(child.text)) this.refuse(node, `${keyword} ${child.text}: not a variable dsh-slack understands, and it may change what a later command does`)
      } else if (child.type === 'word' && ['-x', '-r', '-p'].includes(child.text)) continue
      else this.refuse(node, `${keyword} ${child.text} is not a use of ${keyword} dsh-slack understands`)
    }
  }

  /** `unset NAME`: variables dsh-slack understands (`-f` functions: any). */
  private unset(node: ShellNode): void {
    const words = node.children.filter((child): child is ShellNode => child !== null && child.isNamed)
    const functions = words.some((word) => word.text === '-f')
    for (const word of words) {
      if (word.text === '-f' || word.text === '-v') continue
      if (word.type !== 'variable_name' && word.type !== 'word') return this.refuse(node, 'unset is given a name only known when it runs')
      if (!functions && !understoodVariable(word.text)) return this.refuse(node, `unset ${word.text}: not a variable dsh-slack understands, and it may change what a later command does`)
    }
  }

  /** `for NAME in …` (and `select`): the loop sets NAME. */
  private forLoop(node: ShellNode): void {
    const name = node.childForFieldName('variable')
    if (name && !understoodVariable(name.text)) this.refuse(node, `the loop sets ${name.text}, not a variable dsh-slack understands`)
    for (const child of node.children) if (child && child.isNamed && child.id !== name?.id) this.visit(child)
  }

  /** `[[ … ]]`: comparisons that are arithmetic only on numbers. */
  private test(node: ShellNode): void {
    if (node.type === 'binary_expression') {
      const operator = node.childForFieldName('operator')
      if (operator && ARITHMETIC_TESTS.has(operator.text)) {
        const operands = [node.childForFieldName('left'), node.childForFieldName('right')]
        if (operands.some((operand) => operand?.type !== 'number')) return this.refuse(node, `[[ … ${operator.text} … ]] evaluates ${ARITHMETIC}`)
      }
    }
    this.children(node)
  }

  /** `${…}`: only the operators that read the variable; a subscript only `@`, `*` or a number. */
  private expansion(node: ShellNode): void {
    for (const child of node.children) {
      if (!child) continue
      if (!child.isNamed) {
        if (!READING_EXPANSION.has(child.type)) return this.refuse(node, `\${…${child.type}…} ${child.type === ':=' || child.type === '=' ? 'sets a variable' : child.type === '@' ? 'transforms the value (@P runs commands in it)' : child.type === ':' ? `takes an offset, which evaluates ${ARITHMETIC}` : 'is not an expansion dsh-slack understands'}`)
        continue
      }
      if (child.type === 'subscript') {
        const index = child.childForFieldName('index')
        if (!index || !['@', '*'].includes(index.text) && index.type !== 'number') return this.refuse(node, `an array subscript evaluates ${ARITHMETIC}`)
        continue
      }
      this.visit(child)
    }
  }

  /** `$((…))`: understood only on numbers (a variable's value, or a command's output, is evaluated in turn). */
  private arithmetic(node: ShellNode): void {
    const stack: ShellNode[] = [node]
    while (stack.length > 0) {
      const next = stack.pop()!
      for (const child of next.children) {
        if (!child || !child.isNamed) continue
        if (child.type !== 'number' && !['binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression'].includes(child.type)) return this.refuse(node, `it evaluates ${ARITHMETIC}`)
        stack.push(child)
      }
    }
  }
}

/** Why a word's value is only known when it runs. */
function whyUnknown(node: ShellNode): string {
  const text = node.text.length > 40 ? `${node.text.slice(0, 39)}…` : node.text
  if (node.type === 'word' && isGlob(node.text)) return `${text} is a pattern the shell expands into file names`
  if (BRACE_EXPANSION.test(node.text)) return `${text} expands into several words`
  return `${text} is only known when it runs`
}

/** The simple command a list or pipeline ends with, if it ends with one (`a || b` → `b`). */
function lastCommandOf(node: ShellNode): ShellNode | undefined {
  let at: ShellNode | undefined = node
  while (at && (at.type === 'list' || at.type === 'pipeline')) at = at.children.filter((child): child is ShellNode => child !== null && child.isNamed && child.type !== 'comment').at(-1)
  return at?.type === 'command' ? at : undefined
}

function gitFileWhy(word: string): string {
  return `it names ${word}, one of git's own files (configuration or hooks), which change what a later git command does`
}

function firstError(node: ShellNode): string | undefined {
  if (node.type === 'ERROR') return `near ${JSON.stringify(node.text.slice(0, 20))}`
  if (node.isMissing) return `a missing ${JSON.stringify(node.type)}`
  for (const child of node.children) {
    const found = child && (child.hasError || child.isMissing) ? firstError(child) : undefined
    if (found) return found
  }
  return undefined
}
