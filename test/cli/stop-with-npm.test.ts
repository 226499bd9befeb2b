/**
 * `npx dsh-slack serve &` then `kill %1`, as the docs write it and as a
 * script runs it (no job control: the signal goes to npx alone). npm passes
 * it to its shell, which dies without passing it on; the service must stop
 * all the same (src/cli/stop-with-npm.ts). Run through the real npx of the
 * machine, inside this checkout, with a PATH that has no node_modules/.bin:
 * as a reader's shell is.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCheckout, REPO_ROOT } from '../support/checkout-build.js'

const readerPath = (process.env.PATH ?? '').split(':').filter((dir) => !/node_modules[/\\]\.bin\/?$/.test(dir)).join(':')

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })

/** Whether any process of the group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return check()
}

describe('a command started through npx', () => {
  // Inside the checkout, so npx finds the project's own bin and its node, as in a clone.
  const cache = join(REPO_ROOT, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const cwd = mkdtempSync(join(cache, 'dsh-slack-npx-'))
  beforeAll(() => buildCheckout(), 300_000)
  afterAll(() => rmSync(cwd, { recursive: true, force: true }))

  it('stops with npx: `kill %1` in a script ends the service on its port, and nothing it started is left', async () => {
    const port = await freePort()
    const script = `
      PORT=${port} DSH_SLACK_SANDBOX_PORT=0 DSH_SLACK_STATE=:memory: npx dsh-slack serve > serve.log 2>&1 &
      until grep -q 'API: ' serve.log; do sleep 0.2; done
      kill %1
    `
    const child = spawn('bash', ['-e', '-c', script], { cwd, env: { PATH: readerPath, HOME: process.env.HOME ?? '/tmp' }, detached: true, stdio: 'ignore' })
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    try {
      expect(await exited).toBe(0)
      const log = () => readFileSync(join(cwd, 'serve.log'), 'utf8')
      expect(await until(async () => !(await listening(port)), 15_000), `still listening on ${port}:\n${log()}`).toBe(true)
      expect(await until(() => !groupAlive(child.pid!), 10_000), `processes left:\n${log()}`).toBe(true)
      expect(log()).toMatch(/SIGTERM: stopping/)
    } finally {
      if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL')
    }
  }, 120_000)
})

describe('the watch on npm', () => {
  beforeAll(() => buildCheckout(), 300_000)

  /** A process watching its parent shell, which is killed at once; what it printed: "stopped" (the watch fired) or "kept". */
  async function orphaned(env: Record<string, string>): Promise<string> {
    const module = join(REPO_ROOT, 'dist/src/cli/stop-with-npm.js')
    const program = `import(${JSON.stringify(module)}).then((m) => { m.stopWhenNpmGoes(process.env, () => { console.log('stopped'); process.exit(0) }); setTimeout(() => { console.log('kept'); process.exit(0) }, 4000) })`
    const out = join(cwd, `orphan-${Math.random().toString(36).slice(2)}.out`)
    const shell = spawn('sh', ['-c', `"$NODE" -e "$PROGRAM" > "$OUT" & sleep 1; kill -KILL $$`], { env: { ...env, PATH: readerPath, NODE: process.execPath, PROGRAM: program, OUT: out }, stdio: 'ignore' })
    await new Promise((resolve) => shell.on('exit', resolve))
    await until(() => readFileSync(out, 'utf8').trim() !== '', 8000)
    return readFileSync(out, 'utf8').trim()
  }
  const cache = join(REPO_ROOT, 'node_modules', '.cache')
  const cwd = mkdtempSync(join(cache, 'dsh-slack-orphan-'))
  afterAll(() => rmSync(cwd, { recursive: true, force: true }))

  it('stops a process npm started once its parent is gone, and leaves any other alone (nohup dsh-slack serve & outlives its shell)', async () => {
    const [underNpm, notUnderNpm] = await Promise.all([orphaned({ npm_lifecycle_event: 'npx' }), orphaned({})])

    expect({ underNpm, notUnderNpm }).toEqual({ underNpm: 'stopped', notUnderNpm: 'kept' })
  }, 60_000)
})
