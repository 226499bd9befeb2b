/**
 * What a person is told when the Node or the state store cannot work, and
 * that every alternative named works (issue 47): the machine's own older
 * Node refused in one line at each way in, a missing node:sqlite (Node's
 * `--no-experimental-sqlite` takes it away) naming the database that needed
 * it, and the PostgreSQL way it advises run end to end without node:sqlite.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isSupportedNode } from '../../src/config/node-range.js'
import { freshDatabase } from '../support/postgres.js'
import { cleanEnv, cliSuite, runCli } from './cli-process.js'

const suite = cliSuite('dsh-slack-advice-')
const NO_SQLITE = { NODE_OPTIONS: '--no-experimental-sqlite' }
const RANGE_LINE = /^dsh-slack: Node: dsh-slack runs on Node \^22\.19\.0 \|\| >=24 \(the agent harness's range\), not 20\.\d+\.\d+: install Node 22\.19\+ or 24\+ \(in a clone of dsh-slack, npm install brings one for npm start, npm test and npx dsh-slack\)\n$/

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** The machine's own Node when it is older than the range (Node 20 on this project's machines). */
function olderMachineNode(): string | undefined {
  for (const path of ['/usr/local/bin/node', '/usr/bin/node']) {
    if (!existsSync(path)) continue
    const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim()
    if (version.startsWith('v20.')) return path
    if (!isSupportedNode(version)) return undefined
  }
  return undefined
}
const older = olderMachineNode()

describe.skipIf(!older)('on the machine\'s Node 20', () => {
  it('the CLI refuses in one line naming the range and exits 2, where it would have failed deep in the store', () => {
    const run = spawnSync(older!, [suite.main, 'serve'], { cwd: suite.cwd, env: cleanEnv({ DSH_SLACK_SANDBOX_PORT: '0', PORT: '0' }), encoding: 'utf8' })

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 2, stdout: '' })
    expect(run.stderr).toMatch(RANGE_LINE)
  })

  it('still prints its version', () => {
    expect(spawnSync(older!, [suite.main, '--version'], { encoding: 'utf8' }).status).toBe(0)
  })

  it('the library refuses at createSlackBridge and connectToService with a ConfigError naming the range', () => {
    const library = join(suite.main, '../../index.js')
    const program = `
      const m = await import(${JSON.stringify(library)})
      const tries = [() => m.createSlackBridge({ botToken: 'xoxb-1', appToken: 'xapp-1', channel: 'C1' }), () => m.connectToService({ url: 'http://127.0.0.1:1' })]
      for (const attempt of tries) {
        try { await attempt(); console.log('no refusal') } catch (error) { console.log(error.name + ' ' + error.message) }
      }`
    const run = spawnSync(older!, ['--input-type=module', '-e', program], { encoding: 'utf8' })
    const lines = run.stdout.trim().split('\n')

    expect(lines).toHaveLength(2)
    for (const line of lines) expect(line).toMatch(/^ConfigError Node: dsh-slack runs on Node \^22\.19\.0 \|\| >=24 \(the agent harness's range\), not 20\./)
  })

  it('the harness plugin turns off with that line on stderr and registers nothing', () => {
    const plugin = join(suite.main, '../../cordis/index.js')
    const program = `
      const { default: plugin } = await import(${JSON.stringify(plugin)})
      let registered = 0
      const ctx = { userQuestions: { registerProvider: () => { registered++; return () => {} } }, inject: () => {}, on: () => {}, effect: () => {}, logger: () => ({ info() {}, debug() {} }) }
      plugin.apply(ctx, plugin.Config ? { config: { botToken: 'xoxb-1', appToken: 'xapp-1', channel: 'C1' } } : {})
      console.log('registered ' + registered)`
    const run = spawnSync(older!, ['--input-type=module', '-e', program], { encoding: 'utf8' })

    expect(run.stdout.trim()).toBe('registered 0')
    expect(run.stderr).toMatch(/^dsh-slack: off: dsh-slack runs on Node \^22\.19\.0 \|\| >=24 \(the agent harness's range\), not 20\./)
  })
})

describe('without node:sqlite', () => {
  it('a SQLite state file is named as such, with the alternatives', async () => {
    const run = runCli(suite.main, ['serve'], { env: cleanEnv({ ...NO_SQLITE, DSH_SLACK_SANDBOX_PORT: '0', PORT: String(await freePort()) }), cwd: suite.cwd })

    expect(await run.exited).toBe(1)
    expect(run.stderr()).toMatch(/dsh-slack serve: the SQLite state file \S*sandbox-0\.sqlite needs node:sqlite, which this Node \(22\.[\d.]+, started with --no-experimental-sqlite\) does not have: run dsh-slack on a Node \^22\.19\.0 \|\| >=24 that has it, or keep the asks in PostgreSQL: DSH_SLACK_STATE=postgres:\/\/…, and, without a Slack app, `dsh-slack sandbox` for the stand-in/)
  })

  it('asks kept in memory do not call themselves a file', async () => {
    const run = runCli(suite.main, ['serve'], { env: cleanEnv({ ...NO_SQLITE, DSH_SLACK_STATE: ':memory:', DSH_SLACK_SANDBOX_PORT: '0', PORT: String(await freePort()) }), cwd: suite.cwd })

    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain('asks kept in memory (:memory:) are an in-memory SQLite database, which needs node:sqlite')
    expect(run.stderr()).not.toContain('state file')
  })

  it('the PostgreSQL way it advises works: dsh-slack sandbox keeps its workspace in its file, the service its asks in the database, and an ask is answered', async () => {
    const database = await freshDatabase()
    const workspace = join(suite.cwd, 'sandbox-alone.json')
    try {
      const sandbox = runCli(suite.main, ['sandbox', '--port', String(await freePort()), '--workspace', workspace], { env: cleanEnv(NO_SQLITE), cwd: suite.cwd })
      suite.running.push(sandbox)
      await sandbox.waitForOutput('SLACK_CHANNEL=')
      const lines = Object.fromEntries(sandbox.stdout().split('\n').filter((line) => line.startsWith('SLACK_')).map((line) => line.split('=', 2) as [string, string]))
      const page = sandbox.stdout().match(/^Page: (\S+)/m)![1]!.replace(/\/$/, '')
      const api = await freePort()
      const serve = runCli(suite.main, ['serve'], { env: cleanEnv({ ...NO_SQLITE, ...lines, DSH_SLACK_STATE: database.url, PORT: String(api) }), cwd: suite.cwd })
      suite.running.push(serve)
      await serve.waitForOutput('API: ')

      const asked = (await (await fetch(`http://127.0.0.1:${api}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ questions: [{ id: 'go', question: 'Deploy now?', options: [{ label: 'Deploy' }, { label: 'Wait' }] }] }) })).json()) as { id: string; channel: string; ts: string }
      const clicked = await fetch(`${page}/web/act`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'click', user: 'U0SANDBOX01', target: { channel: asked.channel, ts: asked.ts }, label: 'Deploy' }) })
      expect(clicked.status).toBe(200)
      const answered = (await (await fetch(`http://127.0.0.1:${api}/v1/asks/${asked.id}?wait=20`)).json()) as Record<string, unknown>
      expect({ status: answered.status, answer: answered.answer }).toEqual({ status: 'answered', answer: { answers: [{ id: 'go', selected: ['Deploy'] }] } })
      expect((await (await fetch(`http://127.0.0.1:${api}/healthz`)).json()) as Record<string, unknown>).toMatchObject({ store: 'postgres' })

      serve.child.kill('SIGTERM')
      sandbox.child.kill('SIGTERM')
      expect([await serve.exited, await sandbox.exited]).toEqual([0, 0])
      // The workspace outlives the stand-in: the answered card is in its file for the next start.
      expect(readFileSync(workspace, 'utf8')).toContain(asked.ts)
    } finally {
      await database.drop()
    }
  }, 60_000)
})

describe('the policy file', () => {
  it('names the pid SIGHUP must reach, and SIGHUP to that pid applies a loosening the watch refuses', async () => {
    const policy = join(suite.cwd, 'policy.yml')
    writeFileSync(policy, 'version: 1\ndefaults:\n  approvals: 2\n')
    const serve = runCli(suite.main, ['serve'], { env: cleanEnv({ DSH_SLACK_POLICY: policy, DSH_SLACK_STATE: ':memory:', DSH_SLACK_SANDBOX_PORT: '0', PORT: String(await freePort()) }), cwd: suite.cwd })
    suite.running.push(serve)
    const line = await serve.waitForOutput(/kill -HUP (\d+)\) applies the file/)
    const pid = Number(/kill -HUP (\d+)\) applies the file/.exec(line)![1])

    expect(pid).toBe(serve.child.pid)
    writeFileSync(policy, 'version: 1\ndefaults:\n  approvals: 1\n')
    process.kill(pid, 'SIGHUP')
    await serve.waitForOutput(/policy reloaded \(SIGHUP\)/)
  })
})
