import { execFile } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The repository under test. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Where the real-harness suites keep their work, and the lock every build of the checkout takes. */
export const HARNESS_CACHE = process.env.DSH_HARNESS_CACHE ?? join(homedir(), '.cache/dsh-harness')
const LOCK = join(HARNESS_CACHE, '.dsh-slack-tests.lock')

let built: Promise<string> | undefined

/**
 * This checkout's own `npm run build`, as it is now (a stale dist would test
 * old code), once per test file; one build at a time across workers. For the
 * suites that use the checkout as a user gets it: linked into a harness
 * profile, packed with `npm pack`, run through `npx dsh-slack`.
 */
export function buildCheckout(): Promise<string> {
  built ??= (async () => {
    mkdirSync(HARNESS_CACHE, { recursive: true })
    await run('flock', [LOCK, 'npm', 'run', 'build', '--silent'], { cwd: REPO_ROOT, timeout: 5 * 60_000 })
    return REPO_ROOT
  })()
  return built
}

/** Runs `command` under the same lock, so it never reads dist/ while another worker rebuilds it. */
export async function underBuildLock(command: string, args: string[], options: { cwd: string; timeout?: number }): Promise<{ stdout: string; stderr: string }> {
  mkdirSync(HARNESS_CACHE, { recursive: true })
  return run('flock', [LOCK, command, ...args], { cwd: options.cwd, timeout: options.timeout ?? 120_000, maxBuffer: 16 << 20 })
}
