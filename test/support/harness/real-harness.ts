import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildCheckout } from '../checkout-build.js'

const run = promisify(execFile)

/** The repository this suite tests. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** `../shared/harness` beside the checkout: the harness snapshot and its build script. */
const SHARED_HARNESS = resolve(REPO_ROOT, '../shared/harness')

/** Where build.sh keeps its work (and where the suite's lock lives). */
const CACHE = process.env.DSH_HARNESS_CACHE ?? join(homedir(), '.cache/dsh-harness')

/** The real harness, built from its public repository by `../shared/harness/build.sh`. */
export interface RealHarness {
  /** The built source tree (`apps/cli/lib/bin.js` is the `dsh` CLI). */
  root: string
  /** The harness's own Node binary (it needs ^22.19 || >=24, as dsh-slack does). */
  node: string
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

/**
 * dsh-slack as a harness user installs it from a checkout: this checkout
 * itself, built as it is now and linked as it is (`dsh plugin add
 * link:<it>`), its node_modules as `npm ci` installed them. Nothing is
 * rebuilt for the harness's Node: no runtime dependency is a native module
 * (test/config/native-addons.test.ts holds that), and SQLite is Node's own.
 */
export function pluginPackageFor(_harness: RealHarness): Promise<string> {
  return buildCheckout()
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
