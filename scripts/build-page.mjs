#!/usr/bin/env node
/**
 * Bundles the stand-in page's browser code (src/sandbox/web/client/*.ts)
 * into dist/web/app.js, one classic script the page loads from /web/app.js.
 * Vite (rolldown) does the bundling; the file is written atomically, so a
 * stand-in serving it mid-build never sends half of one. Run by
 * `npm run build` and, before the tests, by test/support/build-page.ts.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const client = join(root, 'src', 'sandbox', 'web', 'client')
const outFile = join(root, 'dist', 'web', 'app.js')

const result = await build({
  configFile: false,
  root: client,
  publicDir: false,
  logLevel: 'warn',
  build: {
    write: false,
    // Readable in the browser's devtools; the file is small and served from loopback.
    minify: false,
    target: 'es2022',
    lib: { entry: join(client, 'main.ts'), formats: ['iife'], name: 'dshSlackSandboxPage', fileName: () => 'app.js' },
  },
})

const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []))
const chunk = outputs.find((o) => o.type === 'chunk' && o.isEntry)
if (!chunk) throw new Error('build-page: vite produced no entry chunk')
mkdirSync(dirname(outFile), { recursive: true })
const temporary = `${outFile}.${process.pid}.tmp`
writeFileSync(temporary, chunk.code)
renameSync(temporary, outFile)
