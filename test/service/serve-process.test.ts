import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { cleanEnv, cliSuite, runCli, type CliRun } from '../cli/cli-process.js'

const ALICE = 'U0SANDBOX01'
const question = { questions: [{ id: 'deploy', question: 'Deploy to production now?', options: [{ label: 'Deploy' }, { label: 'Wait' }] }] }

const suite = cliSuite('dsh-slack-serve-')
const { cwd, running, closers } = suite

function serve(env: Record<string, string>): CliRun {
  const run = runCli(suite.main, ['serve'], { env: cleanEnv({ PORT: '0', DSH_SLACK_SANDBOX_PORT: '0', ...env }), cwd })
  running.push(run)
  return run
}

/** The API's base URL, from the line `serve` prints once it listens. */
async function apiUrlOf(run: CliRun): Promise<string> {
  const output = await run.waitForOutput(/API: (http:\/\/\S+)\/v1\/asks/)
  return /API: (http:\/\/\S+)\/v1\/asks/.exec(output)![1]!
}

describe('dsh-slack serve (the process)', () => {
  it('without a token runs the local stand-in, prints where to open it, and stops cleanly on SIGTERM', async () => {
    const run = serve({})

    const url = await apiUrlOf(run)
    const health = await (await fetch(`${url}/healthz`)).json()
    const created = await fetch(`${url}/v1/asks`, { method: 'POST', body: JSON.stringify(question) })
    run.child.kill('SIGTERM')

    expect(run.stdout()).toMatch(/^Open http:\/\/127\.0\.0\.1:\d+\/\S* to try it/m)
    expect(health).toEqual({ ok: true, slack: 'local' })
    expect(created.status).toBe(201)
    expect(await run.exited).toBe(0)
  })

  it('survives SIGKILL: after a restart, a click on the earlier message answers the ask and GET returns it', async () => {
    const slack: Sandbox = await startSandbox()
    closers.push(() => slack.close())
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
      SLACK_CHANNEL: slack.defaultChannel,
      DSH_SLACK_STATE: join(cwd, 'restart', 'state.sqlite'),
    }
    const first = serve(env)
    const firstUrl = await apiUrlOf(first)
    const created = (await (await fetch(`${firstUrl}/v1/asks`, { method: 'POST', body: JSON.stringify(question) })).json()) as { id: string; ts: string }
    const message = await slack.waitFor(() => slack.messages(slack.defaultChannel).find((m) => m.ts === created.ts))

    first.child.kill('SIGKILL')
    await first.exited
    const second = serve(env)
    const secondUrl = await apiUrlOf(second)
    // Exactly one: the killed process's socket must be gone, or the click could go to it.
    await slack.waitFor(() => slack.socketConnections() === 1)
    await slack.user(ALICE).click(message, 'Deploy')
    const state = await (await fetch(`${secondUrl}/v1/asks/${created.id}?wait=30`)).json()

    expect(state).toEqual({ id: created.id, status: 'answered', answer: { answers: [{ id: 'deploy', selected: ['Deploy'] }] }, answeredBy: { id: ALICE, name: expect.any(String) } })
  })
})
