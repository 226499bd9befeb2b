import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { specifiers } from '../support/imports.js'

// src/contract is the wire-safe seam: types, errors and zod validation. It is
// imported by the library, the service, the plugin and the relay alike, so it
// must not pull in Slack, Node built-ins or any other part of the bridge.
const CONTRACT = fileURLToPath(new URL('../../src/contract/', import.meta.url))

/** True for `zod` and for relative paths that stay inside src/contract. */
function allowed(specifier: string): boolean {
  if (specifier === 'zod') return true
  if (!specifier.startsWith('./')) return false
  return !specifier.slice(2).includes('..')
}

async function contractFiles(): Promise<string[]> {
  const entries = await readdir(CONTRACT, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => `${entry.parentPath}/${entry.name}`.replace(/\/+/g, '/'))
}

describe('src/contract boundary', () => {
  it('finds the contract files by listing the folder', async () => {
    const names = (await contractFiles()).map((file) => file.slice(CONTRACT.length))

    expect(names).toEqual(expect.arrayContaining(['errors.ts', 'types.ts', 'validate-request.ts', 'validate-answer.ts', 'index.ts']))
  })

  it('imports nothing but zod and its own files (no @slack/*, no node:, no other folder)', async () => {
    const offenders: string[] = []

    for (const file of await contractFiles()) {
      const source = await readFile(file, 'utf8')
      for (const specifier of specifiers(source)) if (!allowed(specifier)) offenders.push(`${file.slice(CONTRACT.length)} imports ${specifier}`)
    }

    expect(offenders).toEqual([])
  })

  it('catches the imports it is meant to catch', () => {
    const source = [
      "import { WebClient } from '@slack/web-api'",
      "import type { App } from '@slack/bolt'",
      "import { readFile } from 'node:fs'",
      "export * from '../config/index.js'",
      "import './side-effect.js'",
      "const lazy = await import('node:os')",
      "import { z } from 'zod'",
      "import { fail } from './errors.js'",
    ].join('\n')

    expect(specifiers(source).filter((specifier) => !allowed(specifier))).toEqual(['@slack/web-api', '@slack/bolt', 'node:fs', '../config/index.js', 'node:os'])
  })
})
