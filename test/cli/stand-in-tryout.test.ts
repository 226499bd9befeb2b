/**
 * Everything the README says to try in the browser, tried through the
 * stand-in's own page endpoints against a real `dsh-slack serve` process
 * (issue 47): a sample tool approval from the page, seen in GET /v1/asks as
 * a tool approval and in the audit as the same kind; code channels turned on
 * from the environment; a thread reply answered by name, as a click is, and
 * the code channel saying who asked for changes by name; /healthz without a
 * policy file showing no policy version.
 */
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { cleanEnv, cliSuite, runCli } from './cli-process.js'

const suite = cliSuite('dsh-slack-tryout-')
const ALICE = 'U0SANDBOX01'

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

type Json = Record<string, any>

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function startServe(env: Record<string, string>): Promise<{ api: string; page: string }> {
  const apiPort = await freePort()
  const pagePort = await freePort()
  const serve = runCli(suite.main, ['serve'], { env: cleanEnv({ DSH_SLACK_STATE: ':memory:', PORT: String(apiPort), DSH_SLACK_SANDBOX_PORT: String(pagePort), ...env }), cwd: suite.cwd })
  suite.running.push(serve)
  await serve.waitForOutput('API: ')
  return { api: `http://127.0.0.1:${apiPort}`, page: `http://127.0.0.1:${pagePort}` }
}

const json = async (url: string, init?: RequestInit): Promise<Json> => (await (await fetch(url, init)).json()) as Json
const post = (url: string, body: unknown) => json(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('trying dsh-slack on the stand-in, as the README says', () => {
  it('sends a sample tool approval from the page: GET /v1/asks lists it as a tool approval, the audit names the same kind, and Allow once settles it', async () => {
    const { api, page } = await startServe({})

    expect(await post(`${page}/web/sample`, { kind: 'tool-approval' })).toMatchObject({ ok: true })
    const listed = await until(async () => ((await json(`${api}/v1/asks`)).asks as Json[]).find((ask) => ask.kind === 'tool-approval'), 'the sample tool approval in GET /v1/asks')
    const events = (await json(`${api}/v1/asks/${listed.id}/events`)).events as Json[]
    expect(events.find((event) => event.type === 'posted')?.detail).toMatchObject({ kind: 'tool-approval', tool: 'bash' })

    const state = await json(`${page}/web/state?user=${ALICE}&channel=${listed.channel}`)
    const card = (state.messages as Json[]).find((message) => message.ts === listed.ts)!
    expect(JSON.stringify(card.blocks)).toContain('pnpm -r run migrate --filter \\\\\\n  @shop/api')
    expect(await post(`${page}/web/act`, { action: 'click', user: ALICE, target: { channel: listed.channel, ts: listed.ts }, label: 'Allow once' })).toMatchObject({ ok: true })
    const settled = await json(`${api}/v1/asks/${listed.id}?wait=10`)
    expect({ status: settled.status, answeredBy: settled.answeredBy }).toEqual({ status: 'answered', answeredBy: { id: ALICE, name: 'alice' } })
  })

  it('names a plan review plan-review in the audit, as GET /v1/asks does', async () => {
    const { api } = await startServe({})
    const asked = await post(`${api}/v1/asks`, { questions: [planReviewQuestion('# Plan\n\n1. Ship it.')] })

    const listed = ((await json(`${api}/v1/asks`)).asks as Json[]).find((ask) => ask.id === asked.id)!
    const posted = ((await json(`${api}/v1/asks/${asked.id}/events`)).events as Json[]).find((event) => event.type === 'posted')!
    expect([listed.kind, posted.detail.kind]).toEqual(['plan-review', 'plan-review'])
  })

  it('turns code channels on with SANDBOX_CODE_CHANNELS=on; a reply in the card\'s thread requests changes by name, and the code channel says so by name', async () => {
    const { api, page } = await startServe({ SANDBOX_CODE_CHANNELS: 'on' })
    const asked = await post(`${api}/v1/asks`, { questions: [planReviewQuestion('# Plan: add a cache\n\n1. Add it.\n2. Wire it.')], agent: { id: 'ses-tryout', title: 'cache-agent' } })
    const codeChannel = await until(async () => ((await json(`${page}/web/state?user=${ALICE}&channel=${asked.channel}`)).channels as Json[]).find((channel) => String(channel.name).startsWith('agent-')), 'the session\'s code channel')

    expect(await post(`${page}/web/act`, { action: 'reply', user: ALICE, target: { channel: asked.channel, ts: asked.ts }, text: 'Step 2 needs a rollback' })).toMatchObject({ ok: true })
    const answered = await json(`${api}/v1/asks/${asked.id}?wait=15`)
    expect({ status: answered.status, answeredBy: answered.answeredBy }).toEqual({ status: 'answered', answeredBy: { id: ALICE, name: 'alice' } })
    const line = await until(async () => ((await json(`${page}/web/state?user=${ALICE}&channel=${codeChannel.id}`)).messages as Json[]).map((message) => String(message.text)).find((text) => text.includes('Changes requested by')), 'the code channel\'s line on the review')
    expect(line).toContain(`Changes requested by alice (${ALICE})`)
  })

  it('shows no policy version on /healthz when no policy file is in force', async () => {
    const { api } = await startServe({})

    expect(await json(`${api}/healthz`)).toEqual({ ok: true, slack: 'local', store: 'memory' })
  })
})
