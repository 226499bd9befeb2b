import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { servesOnPostgres, type ServeInstance } from '../support/serve-on-postgres.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'

/**
 * Decision 0081: an instance SIGKILLed while it records a click has not
 * acknowledged it, so Slack shows the person the click failed (it does not
 * send it again), and the person clicks again. Here the instance's database
 * traffic is held at a proxy from just before the click, so the click's
 * write cannot land; the instance is killed, and what it had sent is
 * dropped with its connections.
 */

const ALICE = 'U0SANDBOX01'
const question = { questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] }
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const suite = servesOnPostgres('dsh-slack-killed-before-write-')
let database: TcpProxy

beforeAll(async () => {
  const url = new URL(suite.databaseUrl)
  database = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
})

afterAll(async () => {
  await database?.close()
})

async function status(instance: ServeInstance, id: string): Promise<string> {
  return ((await (await fetch(`${instance.url}/v1/asks/${id}`)).json()) as { status: string }).status
}

describe('a click whose instance is killed before the click is recorded', () => {
  it('is not acknowledged (Slack shows the person it failed), the ask stays open, and their click again on another instance counts', async () => {
    const slack = suite.slack
    // The only instance connected when the click is sent: Slack can hand it to no other.
    const first = await suite.serve('first', { through: database })
    const created = (await (await fetch(`${first.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question) })).json()) as { id: string }
    const card = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 20_000, message: 'the card to be posted' })

    database.hold()
    const click = slack
      .user(ALICE)
      .click(card, 'pnpm')
      .then(
        () => 'acknowledged',
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      )
    // The click has reached the instance, which now waits on the store.
    await vi.waitFor(() => expect(database.heldBytes).toBeGreaterThan(0), { timeout: 5000, interval: 10 })
    await pause(500)
    first.run.child.kill('SIGKILL')
    await first.run.exited
    database.release()
    const firstClick = await click

    const second = await suite.serve('second')
    const afterKill = await status(second, created.id)
    const again = await slack.user(ALICE).click(card, 'pnpm')
    const answered = await fetch(`${second.url}/v1/asks/${created.id}?wait=10`).then(async (response) => (await response.json()) as Record<string, unknown>)

    expect(firstClick).toBe('NOT_ACKNOWLEDGED')
    expect(afterKill).toBe('pending')
    expect(again).toEqual({})
    expect(answered).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'pm', selected: ['pnpm'] }] } })
  }, 90_000)
})
