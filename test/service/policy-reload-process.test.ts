import { spawnSync } from 'node:child_process'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../src/policy/policy-file.js'
import { cleanEnv, cliSuite, runCli } from '../cli/cli-process.js'

// The service as operators run it (compiled, reloads read on the policy
// thread, a real SIGHUP): issue 48 saw a FIFO at the policy path jam that
// thread's reads, and so every later reload, with no log line.

const SECRET = 'team-a-secret-0123456789'
const STRICT = `keys:
  - name: teamA
    sha256: ${sha256(SECRET)}
defaults:
  answerers: [U0SANDBOX01, U0SANDBOX02]
  approvals: 2
`

const suite = cliSuite('dsh-slack-reload-process-')

function serveWith(policy: string) {
  const folder = join(suite.cwd, `run-${suite.running.length}-${Date.now()}`)
  mkdirSync(folder, { recursive: true })
  const path = join(folder, 'policy.yml')
  writeFileSync(path, policy)
  const run = runCli(suite.main, ['serve'], { env: cleanEnv({ PORT: '0', DSH_SLACK_SANDBOX_PORT: '0', DSH_SLACK_STATE: join(folder, 'state.sqlite'), DSH_SLACK_POLICY: path }), cwd: folder })
  suite.running.push(run)
  /** Renames a new file over the policy path, as docs/policy.md says to. */
  const replace = (text: string) => {
    writeFileSync(`${path}.new`, text)
    renameSync(`${path}.new`, path)
  }
  return { run, path, replace }
}

describe('dsh-slack serve reloading its policy file', () => {
  it('refuses a FIFO put at the policy path in one line, and still reloads the file put back after it', async () => {
    const { run, path, replace } = serveWith(STRICT)
    await run.waitForOutput(/API: http:\/\/\S+\/v1\/asks/)

    rmSync(path)
    expect(spawnSync('mkfifo', [path]).status).toBe(0)
    await run.waitForOutput(/policy not reloaded \(the file changed\); version \w+ stays in force: \S+policy\.yml: is a FIFO \(named pipe\), not a regular file/)
    replace(STRICT.replace('approvals: 2', 'approvals: 3'))

    await run.waitForOutput(/policy reloaded \(the file changed\): version \w+ → \w+/)
  }, 60_000)

  it('applies a loosening the file watch refused once the process gets SIGHUP', async () => {
    const { run, replace } = serveWith(STRICT)
    await run.waitForOutput(/API: http:\/\/\S+\/v1\/asks/)

    replace(STRICT.replace('approvals: 2', 'approvals: 1'))
    await run.waitForOutput(/policy not reloaded \(the file changed\); version \w+ stays in force: the new file is looser than the policy in force \(defaults: approvals 2 → 1\)/)
    run.child.kill('SIGHUP')

    await run.waitForOutput(/policy reloaded \(SIGHUP\): version \w+ → \w+, loosened on purpose \(defaults: approvals 2 → 1\)/)
  }, 60_000)
})
