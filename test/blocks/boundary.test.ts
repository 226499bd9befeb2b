import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../blocks', import.meta.url))
const builtins = new Set(builtinModules)

/** Every TypeScript source under blocks/, found by readdir (a new file cannot escape the check). */
function sources(): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .filter((file) => file.split(sep)[0] !== 'examples')
    .map((file) => join(root, file))
}

interface ImportRef {
  specifier: string
  typeOnly: boolean
}

/** The module specifiers a file imports or re-exports, and whether only types cross. */
function importsOf(source: string): ImportRef[] {
  const refs: ImportRef[] = []
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm
  for (const m of source.matchAll(statement)) refs.push({ specifier: m[4]!, typeOnly: m[2] !== undefined })
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) refs.push({ specifier: m[1]!, typeOnly: false })
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) refs.push({ specifier: m[1]!, typeOnly: false })
  for (const m of source.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)) refs.push({ specifier: m[1]!, typeOnly: false })
  return refs
}

function problem(ref: ImportRef): string | null {
  const s = ref.specifier
  if (s.startsWith('node:') || builtins.has(s)) return 'a Node built-in (blocks/ does no I/O)'
  if (s.startsWith('@slack/')) return ref.typeOnly && s === '@slack/types' ? null : 'the Slack SDK at runtime (only `import type` from @slack/types)'
  if (/(^|\/)src(\/|$)/.test(s)) return 'src/ (blocks/ must not depend on the app)'
  return null
}

describe('the blocks/ boundary', () => {
  it('finds the sources by listing the folder', () => {
    const files = sources().map((f) => relative(root, f))

    expect(files).toContain('limits.ts')
    expect(files).toContain(join('markdown', 'rich-text.ts'))
  })

  it('imports no Node built-in, no Slack SDK at runtime and nothing from src/', () => {
    const found: string[] = []
    for (const file of sources()) {
      for (const ref of importsOf(readFileSync(file, 'utf8'))) {
        const why = problem(ref)
        if (why !== null) found.push(`${relative(root, file)} imports ${ref.specifier}: ${why}`)
      }
    }

    expect(found).toEqual([])
  })

  it('recognises the imports it forbids', () => {
    const source = "import { x } from 'node:fs'\nimport type { View } from '@slack/types'\nimport { App } from '@slack/bolt'\nexport { y } from '../src/index.js'\nconst z = await import('fs')"

    expect(importsOf(source).map(problem)).toEqual([
      expect.stringContaining('Node'),
      null,
      expect.stringContaining('Slack SDK'),
      expect.stringContaining('src/'),
      expect.stringContaining('Node'),
    ])
  })
})
