import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, cpSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The repository this suite tests. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** `../shared/harness` beside the checkout: the harness snapshot and its build script. */
const SHARED_HARNESS = resolve(REPO_ROOT, '../shared/harness')

/** Where build.sh keeps its work; our Node 22 build of better-sqlite3 goes there too. */
const CACHE = process.env.DSH_HARNESS_CACHE ?? join(homedir(), '.cache/dsh-harness')

/** The real harness, built from its public repository by `../shared/harness/build.sh`. */
export interface RealHarness {
  /** The built source tree (`apps/cli/lib/bin.js` is the `dsh` CLI). */
  root: string
  /** A Node 22 binary (the harness needs ^22.19 || >=24; this project runs on 20). */
  node: string
  /** That Node's folder, headers included. */
  nodeDir: string
  /** The folder holding pnpm (`dsh plugin add` runs it). */
  pnpmDir: string
  /** The offline overlay: disables the harness plugins that reach the internet. */
  offlineOverlay: string
}

/** The harness, or why it cannot be had here (never under CI, where the suite must run). */
export type HarnessAvailability = { harness: RealHarness; skip?: undefined } | { skip: string; harness?: undefined }

/** Generous: the first build on a fresh machine installs and compiles the harness (about 6 minutes on 2 cores). */
export const HARNESS_BUILD_TIMEOUT_MS = 25 * 60_000

let found: Promise<HarnessAvailability> | undefined

/**
 * Builds the harness once per machine (build.sh returns at once afterwards).
 * Several test files may ask at once in parallel workers: `flock` keeps one
 * build at a time. Under CI=true a harness that cannot be built fails the
 * suite; a plain clone without `../shared` skips it, with the reason.
 */
export function findRealHarness(): Promise<HarnessAvailability> {
  found ??= locate()
  return found
}

async function locate(): Promise<HarnessAvailability> {
  const buildScript = join(SHARED_HARNESS, 'build.sh')
  if (!existsSync(buildScript)) {
    const reason = `the real harness is not here (${buildScript} is missing: a plain clone without ../shared)`
    if (process.env.CI === 'true') throw new Error(`${reason}; CI must run the real-harness suite`)
    return { skip: reason }
  }
  mkdirSync(CACHE, { recursive: true })
  try {
    const { stdout } = await run('flock', [join(CACHE, '.dsh-slack-tests.lock'), 'bash', buildScript], { timeout: HARNESS_BUILD_TIMEOUT_MS, maxBuffer: 1 << 20 })
    const vars = Object.fromEntries(stdout.trim().split('\n').map((line) => line.split('=', 2) as [string, string]))
    const harness: RealHarness = {
      root: required(vars, 'DSH_HARNESS_ROOT'),
      node: required(vars, 'DSH_HARNESS_NODE'),
      nodeDir: required(vars, 'DSH_HARNESS_NODEDIR'),
      pnpmDir: required(vars, 'DSH_HARNESS_PNPM'),
      offlineOverlay: join(SHARED_HARNESS, 'offline-overlay.yml'),
    }
    return { harness }
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim()
    throw new Error(`the real harness could not be built: ${stderr || (error as Error).message}`)
  }
}

function required(vars: Record<string, string>, name: string): string {
  const value = vars[name]
  if (!value) throw new Error(`build.sh printed no ${name}`)
  return value
}

let packaged: Promise<string> | undefined

/**
 * dsh-slack as a harness installs it: a package folder whose `dist` is this
 * checkout's build and whose `node_modules` is this checkout's, except
 * better-sqlite3, rebuilt for the harness's Node 22 with `--nodedir` (no
 * download) in the build cache. The checkout's own install stays as it is.
 * Returns the package folder (`dsh plugin add link:<it>`).
 */
export function pluginPackageFor(harness: RealHarness): Promise<string> {
  packaged ??= makePluginPackage(harness)
  return packaged
}

async function makePluginPackage(harness: RealHarness): Promise<string> {
  const lock = join(CACHE, '.dsh-slack-tests.lock')
  // The checkout's build, as it is now (a stale dist would test old code).
  await run('flock', [lock, 'npm', 'run', 'build', '--silent'], { cwd: REPO_ROOT, timeout: 5 * 60_000 })
  const sqlite = await nativeSqliteFor(harness, lock)

  const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-plugin-'))
  for (const file of ['package.json', 'manifest.yml', 'cordis.patch.yml']) {
    if (existsSync(join(REPO_ROOT, file))) cpSync(join(REPO_ROOT, file), join(dir, file))
  }
  // Copied, not linked: Node resolves a module's imports from its real path,
  // and dist must find the Node 22 better-sqlite3 below, not the checkout's.
  cpSync(join(REPO_ROOT, 'dist'), join(dir, 'dist'), { recursive: true })
  const modules = join(dir, 'node_modules')
  mkdirSync(modules)
  for (const entry of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (entry === '.bin' || entry === 'better-sqlite3') continue
    symlinkSync(join(REPO_ROOT, 'node_modules', entry), join(modules, entry))
  }
  symlinkSync(sqlite, join(modules, 'better-sqlite3'))
  return dir
}

/** better-sqlite3, as pinned in this checkout, built once per machine for the harness's Node. */
async function nativeSqliteFor(harness: RealHarness, lock: string): Promise<string> {
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string }).version
  const nodeVersion = (await run(harness.node, ['--version'])).stdout.trim()
  const home = join(CACHE, `better-sqlite3-${version}-node-${nodeVersion}`)
  const built = join(home, 'node_modules/better-sqlite3')
  const marker = join(home, '.built')
  if (existsSync(marker)) return built

  const script = [
    `rm -rf '${home}' && mkdir -p '${home}/node_modules'`,
    // bindings and file-uri-to-path are better-sqlite3's only runtime dependencies.
    ...['better-sqlite3', 'bindings', 'file-uri-to-path'].map((name) => `cp -a '${join(REPO_ROOT, 'node_modules', name)}' '${home}/node_modules/'`),
    // npm exports its settings to what it runs (Debian's nodedir is /usr), and node-gyp prefers them to its flags.
    `cd '${built}' && rm -rf build && for v in $(compgen -e | grep -i '^npm_config_'); do unset "$v"; done && PATH='${dirname(harness.node)}':"$PATH" '${harness.node}' "$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js" rebuild --release --nodedir='${harness.nodeDir}'`,
    `'${harness.node}' -e "new (require('${built}'))(':memory:').close()"`,
    `touch '${marker}'`,
  ].join(' && ')
  // Under the lock: a second worker waits, then finds the marker.
  await run('flock', [lock, 'bash', '-c', `[ -f '${marker}' ] || { ${script}; }`], { timeout: 15 * 60_000, maxBuffer: 16 << 20 }).catch((error: unknown) => {
    throw new Error(`better-sqlite3 could not be built for the harness's Node ${nodeVersion}: ${String((error as { stderr?: string }).stderr ?? error).slice(-2000)}`)
  })
  return built
}

/** A fresh `DSH_HOME` for one harness run. */
export function freshDshHome(): string {
  return mkdtempSync(join(tmpdir(), 'dsh-home-'))
}

export function removeQuietly(path: string): void {
  rmSync(path, { recursive: true, force: true })
}

/** Writes a loader-patch file (a top-level YAML array, as the harness wants) and returns its path. */
export function writePatchFile(dir: string, name: string, yaml: string): string {
  const path = join(dir, name)
  writeFileSync(path, yaml)
  return path
}
