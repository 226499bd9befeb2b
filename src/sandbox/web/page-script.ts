/**
 * The page's script, served at `/web/app.js`: the TypeScript under
 * `client/`, bundled at build time into `dist/web/app.js` at the package's
 * root (scripts/build-page.mjs, run by `npm run build` and before the tests).
 * The root is found from this module, so it is the same file whether this
 * runs from `src/` (tests), `dist/src/` or an installed package.
 */
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'dsh-slack') return dir
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/** Where the bundle is expected. */
export const PAGE_SCRIPT_PATH = join(packageRoot() ?? process.cwd(), 'dist', 'web', 'app.js')

/** The bundled page script, read on each request so a rebuild shows on the next reload; `null` when it was never built. */
export async function readPageScript(): Promise<string | null> {
  try {
    return await readFile(PAGE_SCRIPT_PATH, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
