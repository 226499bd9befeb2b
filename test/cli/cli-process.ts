import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The CLI as users run it: compiled JavaScript started with `node`. There
 * is no TypeScript runner in the project, so each CLI suite compiles the
 * project once (a few seconds) into its own directory under
 * node_modules/.cache, where the package's dependencies still resolve and
 * no other suite's build can interfere.
 */
export function buildCli(): { main: string; cleanup: () => void } {
  const cache = join(root, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const outDir = mkdtempSync(join(cache, 'dsh-slack-cli-'))
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  // Type errors elsewhere in a tree being edited do not stop the emit; a missing main.js would.
  spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir, '--sourceMap', 'false', '--declaration', 'false'], { cwd: root, stdio: 'ignore' })
  // The stores' migrations are .sql files, which tsc does not copy (npm run build does the same).
  spawnSync(process.execPath, [join(root, 'scripts', 'copy-sql.mjs'), outDir], { cwd: root, stdio: 'ignore' })
  return { main: join(outDir, 'src', 'cli', 'main.js'), cleanup: () => rmSync(outDir, { recursive: true, force: true }) }
}

/** What a suite that runs the CLI shares; `main` is set once the build is done. */
export interface CliSuite {
  main: string
  /** A scratch working directory for the suite's processes. */
  cwd: string
  /** Processes still running after a test are killed. */
  running: CliRun[]
  /** Run after each test, last first. */
  closers: (() => Promise<void>)[]
}

/** Registers a CLI suite's hooks: one build, a scratch directory, clean-up after each test and at the end. */
export function cliSuite(prefix: string): CliSuite {
  const suite: CliSuite = { main: '', cwd: mkdtempSync(join(tmpdir(), prefix)), running: [], closers: [] }
  let cleanup = () => {}
  beforeAll(() => {
    const built = buildCli()
    suite.main = built.main
    cleanup = built.cleanup
  }, 120_000)
  afterEach(async () => {
    for (const run of suite.running.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
    while (suite.closers.length > 0) await suite.closers.pop()!()
  })
  afterAll(() => {
    cleanup()
    rmSync(suite.cwd, { recursive: true, force: true })
  })
  return suite
}

/** A clean environment: nothing from the developer's shell or .env leaks into a test. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...extra }
}

export interface CliRun {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** Resolves with the exit code (or 128 + signal number for a signal). */
  exited: Promise<number>
  /** Resolves once stdout or stderr contains `text`. */
  waitForOutput(text: string | RegExp): Promise<string>
}

export function runCli(main: string, args: string[], options: { env: Record<string, string>; cwd: string; stdin?: string }): CliRun {
  const child = spawn(process.execPath, [main, ...args], { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const waiters: { test: (text: string) => boolean; resolve: (text: string) => void }[] = []
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.test(stdout + stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(stdout + stderr)
      }
    }
  }
  child.stdout!.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), check()))
  child.stderr!.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), check()))
  if (options.stdin !== undefined) child.stdin!.end(options.stdin)
  else child.stdin!.end()
  const signalNumbers: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? 128 + (signalNumbers[signal ?? ''] ?? 0))))
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForOutput: (text) =>
      new Promise((resolve, reject) => {
        const test = (all: string) => (typeof text === 'string' ? all.includes(text) : text.test(all))
        waiters.push({ test, resolve })
        check()
        void exited.then(() => setImmediate(() => reject(new Error(`the CLI exited before printing ${String(text)}:\n${stdout}\n${stderr}`))))
      }),
  }
}
