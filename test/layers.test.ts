import { readFileSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { specifiers, typeScriptFiles } from './support/imports.js'

/**
 * Layers point one way (STYLE.md §13): a folder imports only from its own
 * layer or below, with no exception. `slack-app` sits above the bridge: its
 * handlers decode Slack's payloads and call the bridge, and its composition
 * root (`createSlackBridge`) assembles Bolt, the handlers and the bridge.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['contract', 'config', 'policy', 'log', 'metrics', 'blocks'],
  ['store'],
  ['slack'],
  ['bridge'],
  ['slack-app'],
  ['http', 'client'],
  ['service'],
  ['relay', 'cordis'],
  ['cli', 'index.ts'],
]

/** The local Slack stand-in is Slack's side of the wire: it may share Slack's rules and our renderers' limits, never the product. */
const SANDBOX_MAY_IMPORT = new Set(['sandbox', 'blocks', 'contract', 'config', 'log', 'slack'])
/** Who may start the stand-in: the service (no token set) and the command line. */
const SANDBOX_IMPORTED_BY = new Set(['sandbox', 'service', 'cli', 'index.ts'])

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SRC = resolve(ROOT, 'src')
const BLOCKS = resolve(ROOT, 'blocks')

/** The folder a file belongs to, as the layer table names it (undefined: outside src/ and blocks/). */
function folderOf(file: string): string | undefined {
  if (file.startsWith(BLOCKS + sep)) return 'blocks'
  if (!file.startsWith(SRC + sep)) return undefined
  const parts = relative(SRC, file).split(sep)
  return parts[0]
}

function layerOf(folder: string): number {
  const layer = LAYERS.findIndex((folders) => folders.includes(folder))
  if (layer < 0) throw new Error(`src/${folder} is in no layer: add it to LAYERS in test/layers.test.ts`)
  return layer
}

/** Every import between folders of src/ (and blocks/), resolved to where it points. */
function crossings(): { file: string; from: string; to: string }[] {
  const found = []
  for (const file of typeScriptFiles(SRC)) {
    const from = folderOf(file)!
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue
      const to = folderOf(resolve(dirname(file), specifier))
      if (to && to !== from) found.push({ file: relative(ROOT, file), from, to })
    }
  }
  return found
}

describe('layers', () => {
  it('finds the source files by listing src/, handlers and the stand-in included', () => {
    const files = typeScriptFiles(SRC).map((file) => relative(SRC, file))

    expect(files).toEqual(expect.arrayContaining(['index.ts', `slack-app${sep}handlers${sep}actions.ts`, `bridge${sep}ask-lifecycle.ts`, `sandbox${sep}index.ts`]))
  })

  it('puts every folder of src/ in a layer', () => {
    const folders = new Set(typeScriptFiles(SRC).map((file) => folderOf(file)!))

    for (const folder of folders) if (folder !== 'sandbox') expect(() => layerOf(folder)).not.toThrow()
  })

  it('imports only from the same layer or below', () => {
    const upward = crossings()
      .filter(({ from, to }) => from !== 'sandbox' && to !== 'sandbox' && layerOf(to) > layerOf(from))
      .map(({ file, to }) => `${file} → ${to}`)

    expect(upward).toEqual([])
  })

  it('keeps the Slack stand-in apart from the product: it imports only Slack’s rules and shared limits, and only the service and CLI start it', () => {
    const crossing = crossings()
    const fromSandbox = crossing.filter(({ from, to }) => from === 'sandbox' && !SANDBOX_MAY_IMPORT.has(to)).map(({ file, to }) => `${file} → ${to}`)
    const intoSandbox = crossing.filter(({ from, to }) => to === 'sandbox' && !SANDBOX_IMPORTED_BY.has(from)).map(({ file }) => file)

    expect(fromSandbox).toEqual([])
    expect(intoSandbox).toEqual([])
  })
})
