import { describe, expect, it } from 'vitest'
import { interactiveElements, visibleText } from '../support/messages.js'
import { servesOnPostgres, type ServeInstance } from '../support/serve-on-postgres.js'

/**
 * Issue 39 (2): posting is an outbox. Three `serve` instances share one
 * PostgreSQL database and one stand-in; one of them is killed (SIGKILL)
 * after it recorded an ask and before Slack took its card. The client
 * retries its POST, with the same Idempotency-Key, on another instance: the
 * ask gets its card once, and is answerable.
 */

const ALICE = 'U0SANDBOX01'
const question = { questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] }

const suite = servesOnPostgres('dsh-slack-post-outbox-')

async function post(instance: ServeInstance, key: string) {
  const response = await fetch(`${instance.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(question) })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe('an ask whose instance is killed after recording it and before Slack took its card', () => {
  it('is posted once by another instance when the client retries its POST there, and is answerable', async () => {
    const slack = suite.slack
    const [first, second] = [await suite.serve('a'), await suite.serve('b'), await suite.serve('c')]
    // Slack refuses the first post for now (429): the card is not in Slack while the instance waits to send it again.
    slack.faults.inject('chat.postMessage', { status: 429, retryAfter: 10 })
    const lost = post(first!, 'outbox-1').catch((error: unknown) => error)
    await slack.waitFor(() => slack.faults.armedFor('chat.postMessage') === 0 || undefined, { timeoutMs: 10_000, message: 'the first post to reach Slack' })

    first!.run.child.kill('SIGKILL')
    await lost
    const retried = await post(second!, 'outbox-1')
    const card = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 40_000, message: 'the card to be posted' })
    const postedAt = Date.now()

    expect(retried.status).toBe(201)
    // The real card, or a true time by which it is posted.
    if (retried.body.ts === undefined) expect(postedAt).toBeLessThanOrEqual(Date.parse(retried.body.expectedPostAt as string) + 2000)
    else expect(retried.body.ts).toBe(card.ts)

    const polling = fetch(`${second!.url}/v1/asks/${retried.body.id}?wait=30`).then(async (response) => (await response.json()) as Record<string, any>)
    await slack.user(ALICE).click(card, 'pnpm')
    const settled = await polling
    const final = await slack.waitFor(
      () => {
        const message = slack.messages(slack.defaultChannel).find((m) => m.ts === card.ts)
        return message && interactiveElements(message).length === 0 ? message : undefined
      },
      { timeoutMs: 15_000, message: 'the card to lose its controls' },
    )
    // A moment for a second poster, had there been one.
    await new Promise((resolve) => setTimeout(resolve, 1000))

    expect(settled).toMatchObject({ id: retried.body.id, status: 'answered', answer: { answers: [{ id: 'pm', selected: ['pnpm'] }] } })
    expect(slack.messages(slack.defaultChannel).filter((message) => message.thread_ts === undefined)).toHaveLength(1)
    expect(visibleText(final)).toContain(ALICE)
  }, 90_000)
})
