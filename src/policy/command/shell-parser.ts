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
  readonly type: string
  readonly text: string
  readonly hasError: boolean
  readonly isMissing: boolean
  readonly children: (ShellNode | null)[]
  childForFieldName(name: string): ShellNode | null
  childrenForFieldName(name: string): (ShellNode | null)[]
}

interface LoadedParser {
  parse(text: string): { rootNode: ShellNode; delete(): void } | null
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

/**
 * Parses `text` as bash and hands the tree to `read` (the tree is freed
 * after). `undefined` while the parser is not loaded.
 */
export function withShellTree<T>(text: string, read: (root: ShellNode) => T): T | undefined {
  if (!loaded) return undefined
  const tree = loaded.parse(text)
  if (!tree) return undefined
  try {
    return read(tree.rootNode)
  } finally {
    tree.delete()
  }
}
