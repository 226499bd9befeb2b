import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * tree-sitter's bash grammar as WebAssembly (decision 0063): the runtime and
 * the grammar come built together in one package with no native addon and
 * no install script. Loading is asynchronous (the WebAssembly is compiled
 * once); parsing after that is synchronous, so matching stays synchronous.
 */
type TreeSitter = typeof import('@vscode/tree-sitter-wasm')

/** A node of the parse tree: only what the reader of simple commands uses. */
export interface ShellNode {
  /** Unique within a tree: the same node read twice has the same id. */
  readonly id: number
  readonly type: string
  readonly text: string
  /** A named node (`command`, `word`), not punctuation or a keyword (`;`, `then`). */
  readonly isNamed: boolean
  readonly hasError: boolean
  readonly isMissing: boolean
  readonly children: (ShellNode | null)[]
  childForFieldName(name: string): ShellNode | null
  childrenForFieldName(name: string): (ShellNode | null)[]
}

interface TreeWalk {
  gotoFirstChild(): boolean
  gotoNextSibling(): boolean
  gotoParent(): boolean
  delete(): void
}

interface LoadedParser {
  parse(text: string, oldTree: null, options: { progressCallback: () => boolean }): { rootNode: ShellNode; walk(): TreeWalk; delete(): void } | null
  /** After a cancelled parse, the next would resume it: this starts afresh. */
  reset(): void
}

let loaded: LoadedParser | undefined
let loading: Promise<void> | undefined

async function load(): Promise<void> {
  const require = createRequire(import.meta.url)
  const { Parser, Language } = require('@vscode/tree-sitter-wasm') as TreeSitter
  await Parser.init()
  const bash = await Language.load(readFileSync(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm')))
  const parser = new Parser()
  parser.setLanguage(bash)
  // A first parse compiles the grammar's hot paths: done here, not on the first tool call's clock.
  parser.parse('cd /srv && git status --short | head -5 && echo "$(date)"')?.delete()
  loaded = parser as unknown as LoadedParser
}

/**
 * Loads the shell parser once (about 60 ms and 60-80 MB). Only the entry
 * points that apply a policy load it, and they await it at start
 * (createSlackBridge, `policy explain`): a thin client or `doctor`, which
 * import policy code but never match a command, pay nothing. Until it is
 * loaded a command is read as unknown, which falls to the strictest rule
 * that could apply, never to a looser one.
 */
export function loadShellParser(): Promise<void> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/** Whether commands can be parsed yet. */
export function shellParserLoaded(): boolean {
  return loaded !== undefined
}

/** Why a tree could not be read: the parser is not loaded, it gave up at the deadline, or the tree is too deep. */
export type ShellTree<T> = { read: T } | { refused: string }

/** The depth of the deepest node and the number of nodes, walked without recursion; stops once past either limit. */
function measure(walk: TreeWalk, maxDepth: number, maxNodes: number): { depth: number; nodes: number } {
  let depth = 0
  let deepest = 0
  let nodes = 1
  for (;;) {
    if (walk.gotoFirstChild()) {
      depth += 1
      nodes += 1
      deepest = Math.max(deepest, depth)
      if (deepest > maxDepth || nodes > maxNodes) return { depth: deepest, nodes }
      continue
    }
    while (!walk.gotoNextSibling()) {
      if (!walk.gotoParent()) return { depth: deepest, nodes }
      depth -= 1
    }
    nodes += 1
    if (nodes > maxNodes) return { depth: deepest, nodes }
  }
}

/** The bounds of one command line's reading, shared by the shells nested in it (limits.ts). */
export interface ReadBudget {
  /** A `performance.now()` time: a parse still running then is stopped. */
  deadline: number
  maxDepth: number
  /** Nodes left to read, over every tree of the command line. */
  nodesLeft: number
}

/**
 * Parses `text` as bash and hands the tree to `read` (the tree is freed
 * after). The parse stops at the budget's deadline; a tree deeper than its
 * depth, or with more nodes than it has left, is not handed on: a refusal
 * says which. Reading the tree costs a few microseconds a node (each is
 * copied out of WebAssembly), so the count bounds what `read` costs.
 */
export function withShellTree<T>(text: string, read: (root: ShellNode) => T, budget: ReadBudget): ShellTree<T> {
  if (!loaded) return { refused: 'the shell parser is not loaded yet' }
  const tree = loaded.parse(text, null, { progressCallback: () => performance.now() > budget.deadline })
  if (!tree) {
    loaded.reset()
    return { refused: 'the shell parser gave up on it: reading it took too long' }
  }
  try {
    const walk = tree.walk()
    let size: { depth: number; nodes: number }
    try {
      size = measure(walk, budget.maxDepth, budget.nodesLeft)
    } finally {
      walk.delete()
    }
    if (size.depth > budget.maxDepth) return { refused: `it nests more than ${budget.maxDepth} levels deep (substitutions inside substitutions…), more than dsh-slack reads` }
    if (size.nodes > budget.nodesLeft) return { refused: 'it holds more shell syntax than dsh-slack reads in one command line (thousands of commands)' }
    budget.nodesLeft -= size.nodes
    return { read: read(tree.rootNode) }
  } finally {
    tree.delete()
  }
}
