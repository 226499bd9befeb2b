import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import type { RealHarness } from './real-harness.js'

const run = promisify(execFile)

/** The harness's environment: ours minus Slack and dsh-slack settings (a test gives those explicitly), plus its Node and pnpm first on PATH. */
export function harnessEnv(harness: RealHarness, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(SLACK_|DSH_SLACK_|DSH_HOST_|DEEPSEEK_|DSH_HOME$|DSH_PERMISSION_MODE$)/.test(key)) env[key] = value
  }
  env.PATH = `${harness.pnpmDir}:${dirname(harness.node)}:${process.env.PATH ?? ''}`
  return { ...env, ...extra }
}

/** `dsh <args>` under the harness's Node 22. */
export function dshArgs(harness: RealHarness, args: string[]): [string, string[]] {
  return [harness.node, [join(harness.root, 'apps/cli/lib/bin.js'), ...args]]
}

/** `dsh plugin --profile <profile> add link:<dir>`: dsh-slack installed into a profile as a user installs a plugin from a checkout. Returns what dsh printed. */
export async function addPlugin(harness: RealHarness, home: string, profile: string, packageDir: string): Promise<string> {
  const [node, args] = dshArgs(harness, ['plugin', '--profile', profile, 'add', `link:${packageDir}`])
  const { stdout, stderr } = await run(node, args, { env: harnessEnv(harness, { DSH_HOME: home }), timeout: 120_000 })
  return stdout + stderr
}

/** `dsh plugin --profile <profile> add <spec>` run from `cwd`, as a user types it (a relative tarball path is anchored there). Returns what dsh printed. */
export async function addPluginSpec(harness: RealHarness, home: string, profile: string, spec: string, cwd: string): Promise<string> {
  const [node, args] = dshArgs(harness, ['plugin', '--profile', profile, 'add', spec])
  const { stdout, stderr } = await run(node, args, { env: harnessEnv(harness, { DSH_HOME: home }), cwd, timeout: 300_000 })
  return stdout + stderr
}

/** Writes the profile's own patch layer (`$DSH_HOME/profiles/<profile>/cordis.patch.yml`), where the docs tell a user to put the plugin's entry. */
export function writeProfilePatch(home: string, profile: string, yaml: string): void {
  writeFileSync(join(home, 'profiles', profile, 'cordis.patch.yml'), yaml)
}

export interface DshRun {
  readonly child: ChildProcess
  stdout(): string
  stderr(): string
  /** Settles when the process has exited (code or signal), with how long it ran. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>
}

/** Starts `dsh <args>` with its own DSH_HOME and the given model. */
export function startDsh(harness: RealHarness, options: { home: string; args: string[]; env?: Record<string, string>; cwd?: string }): DshRun {
  const [node, args] = dshArgs(harness, options.args)
  const child = spawn(node, args, { env: harnessEnv(harness, { DSH_HOME: options.home, ...options.env }), cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, atMs: performance.now() }))
  })
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

/** A headless run: `dsh --profile headless --patch <offline overlay> [--patch …] "<task>"`. */
export function startHeadless(harness: RealHarness, options: { home: string; task: string; patches?: string[]; env?: Record<string, string>; cwd?: string }): DshRun {
  const patches = [harness.offlineOverlay, ...(options.patches ?? [])].flatMap((patch) => ['--patch', patch])
  return startDsh(harness, { home: options.home, args: ['--profile', 'headless', ...patches, options.task], ...(options.env ? { env: options.env } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) })
}
