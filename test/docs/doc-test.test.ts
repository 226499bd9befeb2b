/**
 * Every example in README.md and docs/ runs (docs/README.md, "Every example
 * runs"): `sh`/`bash` blocks are run in order against a `dsh-slack serve` on
 * the local stand-in started for their file, `json` blocks are validated,
 * `<!-- doc-test: file NAME -->` blocks are written into the file's working
 * folder, `<!-- doc-test: skip: reason -->` blocks are passed over.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { requestProblem } from '../../src/cli/check-request.js'
import { answerSchema, validateAnswer, validateRequest } from '../../src/contract/index.js'
import { buildCli, cleanEnv, runCli, type CliRun } from '../cli/cli-process.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { docFiles, readDocBlocks, type DocBlock } from './doc-blocks.js'
import { startAnswerer } from './stand-in-answerer.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const RUNS = new Set(['sh', 'bash'])
/** Fences must say what they hold, so a shell example cannot hide from the test in an untagged one. */
const KNOWN = new Set(['sh', 'bash', 'json', 'text', 'ts', 'js', 'yaml', 'sql', 'diff'])
const BLOCK_TIMEOUT_MS = 30_000
/**
 * The ports the docs write, as a reader's machine has them (3000 the API of
 * `npm start`, 4100 its stand-in, others in 3000–3099 and 4100–4199 for more
 * processes); the test gives each a free port of its own, per file.
 */
const DOC_PORT = /(127\.0\.0\.1:|PORT=|--port[ =])(30\d\d|41\d\d)\b/g
/** The database the docs write; the test makes a fresh one per file that names it. */
const DOC_DATABASE = 'postgres://postgres@127.0.0.1:5432/dsh_slack'

/**
 * `npx dsh-slack …` as in a clone of the project, where npx finds the
 * package's own bin: a process between the shell and dsh-slack (npx and its
 * shell; here the function's subshell when it runs in the background), so
 * `kill %1` reaches that process alone, and `npm_lifecycle_event` set as npx
 * sets it. `curl` fails the block on an HTTP error status (with the body
 * shown), so an example the API refuses cannot pass.
 */
const PRELUDE = [
  'npx() { if [ "$1" = dsh-slack ]; then shift; npm_lifecycle_event=npx dsh-slack "$@"; else command npx "$@"; fi; }',
  'curl() { command curl --fail-with-body "$@"; }',
  '',
].join('\n')

/** Ports handed out in this run: pages run side by side, and a port is free only until its process binds it. */
const handedOut = new Set<number>()

async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    await new Promise((resolve) => server.close(resolve))
    if (handedOut.has(port)) continue
    handedOut.add(port)
    return port
  }
}

interface BlockRun {
  code: number | null
  output: string
  /** What the block started and did not stop (still running some seconds after it ended), as `pgrep -a` lists it. */
  leftRunning: string
}

/** How long what a block started may take to stop after the block ends (a service stopping cleanly withdraws its open asks). */
const STOP_GRACE_MS = 10_000

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits for the process group to empty; what is still in it after STOP_GRACE_MS. */
async function leftInGroup(pgid: number): Promise<string> {
  const deadline = Date.now() + STOP_GRACE_MS
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200))
  if (!groupAlive(pgid)) return ''
  return new Promise((resolve) => {
    const list = spawn('pgrep', ['-a', '-g', String(pgid)], { stdio: ['ignore', 'pipe', 'ignore'] })
    let out = ''
    list.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    list.on('close', () => resolve(out.trim() || `process group ${pgid}`))
  })
}

/**
 * One block in its own bash, in its own process group, so what it leaves
 * running is found (a block must stop what it starts, as a reader's shell
 * would have to) and then stopped.
 */
function runBlock(script: string, cwd: string, env: Record<string, string>): Promise<BlockRun> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', PRELUDE + script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      output += `\n[doc-test: stopped after ${BLOCK_TIMEOUT_MS / 1000} s]`
      killGroup()
    }, BLOCK_TIMEOUT_MS)
    child.on('close', (code) => {
      clearTimeout(timer)
      void leftInGroup(child.pid!).then((leftRunning) => {
        killGroup()
        resolve({ code, output, leftRunning })
      })
    })
  })
}

/** A JSON example is a request, an answer (to the request just before it, when there is one), or other data that parses. */
function checkJson(block: DocBlock, previous: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const where = `${block.file}:${block.line}`
  let value: unknown
  try {
    value = JSON.parse(block.text)
  } catch (error) {
    throw new Error(`${where}: not JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const object = value as Record<string, unknown>
  if ('questions' in object) {
    const problem = requestProblem(object)
    if (problem) throw new Error(`${where}: not a valid request: ${problem.code} ${problem.message}`)
    return object
  }
  if ('answers' in object) {
    if (previous) validateAnswer(validateRequest({ questions: previous.questions as never }), object)
    else answerSchema.parse(object)
  }
  return undefined
}

// Pages run side by side (each has its own folder, ports, service and database): most of a page's time is waiting for processes to start.
describe('every example in the docs', { concurrent: true }, () => {
  let main = ''
  let cleanup = () => {}
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-slack-doc-test-'))
  const bin = join(scratch, 'bin')

  beforeAll(() => {
    const built = buildCli()
    main = built.main
    cleanup = built.cleanup
    mkdirSync(bin)
    writeFileSync(join(bin, 'dsh-slack'), `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`)
    chmodSync(join(bin, 'dsh-slack'), 0o755)
  }, 120_000)
  afterAll(() => {
    cleanup()
    rmSync(scratch, { recursive: true, force: true })
  })

  for (const file of docFiles(root)) {
    it(`${file}: shell examples run, JSON examples are valid`, async ({ expect }) => {
      const blocks = readDocBlocks(root, file)
      for (const block of blocks) expect(KNOWN.has(block.lang), `${block.file}:${block.line}: fence language "${block.lang}" (tag it: ${[...KNOWN].join(', ')})`).toBe(true)
      const cwd = join(scratch, file.replace(/[/.]/g, '_'))
      mkdirSync(cwd, { recursive: true })
      const runnable = blocks.some((b) => RUNS.has(b.lang) && !b.marker)
      let serve: CliRun | undefined
      let answerer: ReturnType<typeof startAnswerer> | undefined
      const env: Record<string, string> = cleanEnv({ PATH: `${bin}:${process.env.PATH ?? ''}` })
      const ports = new Map<string, number>()
      let database: FreshDatabase | undefined
      /** The block as it runs here: the docs' ports and database replaced by the test's own. */
      const localise = async (text: string): Promise<string> => {
        for (const [, , port] of text.matchAll(DOC_PORT)) if (!ports.has(port!)) ports.set(port!, await freePort())
        if (text.includes(DOC_DATABASE)) database ??= await freshDatabase()
        return text.replace(DOC_PORT, (_, prefix: string, port: string) => `${prefix}${ports.get(port)!}`).replaceAll(DOC_DATABASE, database?.url ?? DOC_DATABASE)
      }
      try {
        if (runnable) {
          ports.set('3000', await freePort())
          ports.set('4100', await freePort())
          Object.assign(env, { PORT: String(ports.get('3000')), DSH_SLACK_SANDBOX_PORT: String(ports.get('4100')) })
          serve = runCli(main, ['serve'], { env, cwd })
          await serve.waitForOutput('API: ')
          answerer = startAnswerer(`http://127.0.0.1:${ports.get('4100')}`)
        }
        let request: Record<string, unknown> | undefined
        for (const block of blocks) {
          if (block.marker?.kind === 'skip') continue
          if (block.marker?.kind === 'file') {
            mkdirSync(dirname(join(cwd, block.marker.name)), { recursive: true })
            writeFileSync(join(cwd, block.marker.name), block.text)
          }
          if (block.lang === 'json') {
            request = checkJson(block, request) ?? request
            continue
          }
          if (!RUNS.has(block.lang) || block.marker) continue
          // An example that answers on the page itself answers alone: alice and bob wait, whatever its pace.
          const answersItself = block.text.includes('/web/act')
          if (answersItself) await answerer?.hold()
          const run = await runBlock(await localise(block.text), cwd, env)
          if (answersItself) answerer?.resume()
          expect(run.code, `${block.file}:${block.line} exited ${String(run.code)}:\n${block.text}\n--- output ---\n${run.output}`).toBe(0)
          expect(run.leftRunning, `${block.file}:${block.line} left running what it started:\n${block.text}`).toBe('')
        }
        expect(answerer?.problems ?? []).toEqual([])
      } finally {
        await answerer?.stop()
        if (serve && serve.child.exitCode === null) {
          serve.child.kill('SIGTERM')
          await serve.exited
        }
        await database?.drop()
      }
    }, 120_000)
  }
})

/**
 * The machine's own Node, as a new user's shell has it: /usr/local/bin,
 * /usr/bin and /bin, nothing of this project's (no node_modules/.bin, no
 * Node a developer put first). On this project's machines it is Node 20,
 * older than the range: the README's two commands must work there as
 * typed, the clone bringing its own Node (decision 0082).
 */
const MACHINE_PATH = '/usr/local/bin:/usr/bin:/bin'

function machineNode(): { version: string } | { missing: string } {
  for (const dir of MACHINE_PATH.split(':')) {
    if (!existsSync(join(dir, 'node'))) continue
    const probe = spawnSync(join(dir, 'node'), ['--version'], { encoding: 'utf8' })
    if (probe.status === 0) return { version: probe.stdout.trim() }
  }
  return { missing: `no node in ${MACHINE_PATH}` }
}

/** A copy of the project as a fresh clone has it (tracked and new files, as they are now; nothing ignored: no node_modules, no dist). */
function freshCopy(into: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(root, file)
    if (!existsSync(from)) continue // deleted in the working tree
    mkdirSync(dirname(join(into, file)), { recursive: true })
    cpSync(from, join(into, file), { preserveTimestamps: true })
  }
}

describe("the README's first two commands, in a fresh copy on the machine's own Node", { timeout: 900_000 }, () => {
  const node = machineNode()
  const copy = mkdtempSync(join(tmpdir(), 'dsh-slack-fresh-clone-'))
  // Its node_modules holds a Node binary and the whole dev tree: removing it takes a while on a loaded machine.
  afterAll(() => rm(copy, { recursive: true, force: true }), 180_000)
  const [install, test] = readDocBlocks(root, 'README.md').filter((block) => RUNS.has(block.lang))

  it('are `npm install && npm start` and `npm test`, first in the README', () => {
    expect([install?.text.trim(), test?.text.trim()]).toEqual(['npm install && npm start', 'npm test'])
  })

  it('serve the stand-in and take an ask, then npm test passes, with nothing else typed', async (context) => {
    if ('missing' in node) {
      if (process.env.CI === 'true') throw new Error(`${node.missing}: CI must run the README's commands on the machine's Node`)
      context.skip(node.missing)
      return
    }
    freshCopy(copy)
    const lockBefore = readFileSync(join(copy, 'package-lock.json'), 'utf8')
    const api = await freePort()
    const page = await freePort()
    const env = { PATH: MACHINE_PATH, HOME: process.env.HOME ?? '/tmp', PORT: String(api), DSH_SLACK_SANDBOX_PORT: String(page) }
    const started = performance.now()
    const start = spawn('bash', ['-c', install!.text], { cwd: copy, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    start.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    start.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => start.on('exit', resolve))
    let answerer: ReturnType<typeof startAnswerer> | undefined
    try {
      const serving = await Promise.race([
        (async () => {
          while (!output.includes('API: ')) await new Promise((resolve) => setTimeout(resolve, 250))
          return true
        })(),
        exited.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 600_000)),
      ])
      expect(serving, `npm install && npm start on ${node.version} did not serve:\n${output.slice(-3000)}`).toBe(true)
      const servingAfterS = Math.round((performance.now() - started) / 1000)
      expect(output).toContain(`Open http://127.0.0.1:${page}/ to try it`)

      answerer = startAnswerer(`http://127.0.0.1:${page}`)
      const asked = await fetch(`http://127.0.0.1:${api}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }] }) })
      expect(asked.status).toBe(201)
      const { id } = (await asked.json()) as { id: string }
      const answered = (await (await fetch(`http://127.0.0.1:${api}/v1/asks/${id}?wait=30`)).json()) as Record<string, unknown>
      expect({ status: answered.status, answer: answered.answer }).toEqual({ status: 'answered', answer: { answers: [{ id: 'pm', selected: ['pnpm'] }] } })
      console.info(`fresh copy on the machine's Node ${node.version}: serving ${servingAfterS} s after npm install && npm start began`)

      // Ctrl-C, as a reader stops it: the terminal signals the whole foreground group.
      await answerer.stop()
      answerer = undefined
      process.kill(-start.pid!, 'SIGINT')
      expect(await exited).not.toBeNull()
      expect(await leftInGroup(start.pid!), 'npm start left running after Ctrl-C').toBe('')
    } finally {
      await answerer?.stop()
      if (groupAlive(start.pid!)) process.kill(-start.pid!, 'SIGKILL')
    }
    expect(readFileSync(join(copy, 'package-lock.json'), 'utf8'), 'npm install changed package-lock.json').toBe(lockBefore)

    // The README's npm test, limited to the file that checks the Node it runs on (the whole suite would run this test again).
    const suite = spawnSync('bash', ['-c', `${test!.text.trim()} -- test/config/node-runtime.test.ts`], { cwd: copy, env: { PATH: MACHINE_PATH, HOME: env.HOME }, encoding: 'utf8', timeout: 600_000 })
    expect(suite.status, `npm test on ${node.version}:\n${(suite.stdout + suite.stderr).slice(-3000)}`).toBe(0)
    // vitest colours its summary even into a pipe: read it without the escapes.
    expect(suite.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+\d+ passed \(\d+\)/)
  })
})

describe('links between the docs', () => {
  it('point to files that exist, so the index reaches every page', () => {
    const broken: string[] = []
    for (const file of docFiles(root)) {
      const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!) || target!.startsWith('#')) continue
        const path = join(dirname(file), target!.split('#')[0]!)
        if (!existsSync(join(root, path))) broken.push(`${file}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('reach every page under docs/ from docs/README.md or the README', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8') + readFileSync(join(root, 'README.md'), 'utf8')
    const decisions = readFileSync(join(root, 'docs/decisions/README.md'), 'utf8')
    const unlinked = docFiles(root)
      .filter((file) => file.startsWith('docs/') && file !== 'docs/README.md')
      .filter((file) => (file.startsWith('docs/decisions/') ? !decisions.includes(`](${file.slice('docs/decisions/'.length)})`) && file !== 'docs/decisions/README.md' : !index.includes(file.slice('docs/'.length))))
    expect(unlinked).toEqual([])
  })
})
