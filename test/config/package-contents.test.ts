/**
 * What `npm pack` puts in the tarball a user (or `dsh plugin add`) installs:
 * the compiled code, its types, the stores' migrations, the stand-in's page,
 * the manifest, the schemas and the plugin's patch; nothing else (no tests,
 * no TypeScript sources, no source maps of files that are not there, no
 * benchmark or example writers). Listed from this checkout's own build.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildCheckout, REPO_ROOT, underBuildLock } from '../support/checkout-build.js'

interface Packed {
  files: { path: string; size: number }[]
  size: number
  unpackedSize: number
}

const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  main: string
  types: string
  bin: Record<string, string>
  exports: Record<string, string | Record<string, string>>
  dsh: { bundle: { patch: string } }
}

/** Where every packed file may come from. */
const ALLOWED = [/^package\.json$/, /^README\.md$/, /^manifest\.yml$/, /^cordis\.patch\.yml$/, /^\.env\.example$/, /^schemas\/[\w-]+\.schema\.json$/, /^dist\/src\/.+\.(js|d\.ts|sql)$/, /^dist\/blocks\/.+\.(js|d\.ts)$/, /^dist\/web\/app\.js$/]

/** The relative module specifiers of a compiled file (static imports and exports, and import() of a literal). */
function relativeImports(code: string): string[] {
  return [...code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!)
}

describe('the package npm pack builds', () => {
  let packed: Packed
  let paths: Set<string>

  beforeAll(async () => {
    await buildCheckout()
    const { stdout } = await underBuildLock('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT })
    packed = (JSON.parse(stdout) as Packed[])[0]!
    paths = new Set(packed.files.map((file) => file.path))
  }, 300_000)

  it('holds only what a user runs: compiled code, types, migrations, the page, manifest, schemas and the plugin patch', () => {
    expect([...paths].filter((path) => !ALLOWED.some((allowed) => allowed.test(path)))).toEqual([])
    expect([...paths].filter((path) => /(^|\/)(test|examples|bench)\//.test(path) || path.endsWith('.map') || path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([])
  })

  it('holds every entry point package.json names: main, types, each export, the bin and the harness bundle patch', () => {
    const targets = [packageJson.main, packageJson.types, ...Object.values(packageJson.bin), packageJson.dsh.bundle.patch, ...Object.values(packageJson.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))]
    expect(targets.map((target) => normalize(target)).filter((target) => !paths.has(target))).toEqual([])
  })

  it('holds both stores\' migrations and the stand-in\'s page script', () => {
    const migrations = (store: string) => readdirSync(join(REPO_ROOT, 'src/store/migrations', store)).filter((name) => name.endsWith('.sql')).map((name) => `dist/src/store/migrations/${store}/${name}`)
    expect([...migrations('sqlite'), ...migrations('postgres')].filter((path) => !paths.has(path))).toEqual([])
    expect(migrations('sqlite').length + migrations('postgres').length).toBeGreaterThan(5)
    expect(paths.has('dist/web/app.js')).toBe(true)
  })

  it('resolves every relative import of its code inside the tarball', () => {
    const missing = [...paths]
      .filter((path) => path.endsWith('.js'))
      .flatMap((path) => relativeImports(readFileSync(join(REPO_ROOT, path), 'utf8')).map((specifier) => [path, normalize(join(dirname(path), specifier))] as const))
      .filter(([, target]) => !paths.has(target))
    expect(missing).toEqual([])
  })

  it('stays small: under 1 MB packed, 3 MB unpacked (no Node, no tests)', () => {
    expect(packed.size).toBeLessThan(1_000_000)
    expect(packed.unpackedSize).toBeLessThan(3_000_000)
  })
})
