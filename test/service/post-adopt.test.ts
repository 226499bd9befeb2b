import { describe, expect, it } from 'vitest'
import { interactiveElements } from '../support/messages.js'
import { servesOnPostgres, type ServeInstance } from '../support/serve-on-postgres.js'

/**
 * Issue 39: the window the post outbox left. Slack takes an ask's card, and
 * its instance is killed (SIGKILL) before Slack's answer reaches it, so the
 * card's ts is never recorded. The instance that takes the ask over finds
 * the card in the channel's history by the ask id in its metadata and
 * adopts it: one card, answerable, not a second one.
 */

const ALICE = 'U0SANDBOX01'
const question = { questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] }

const suite = servesOnPostgres('dsh-slack-post-adopt-')

async function post(instance: ServeInstance, key: string) {
  const response = await fetch(`${instance.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(question) })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

const topLevel = (messages: { thread_ts?: string; ts: string }[]) => messages.filter((message) => message.thread_ts === undefined || message.thread_ts === message.ts)

describe('an ask whose card Slack took just before its instance was killed', () => {
  it('is adopted by the instance that takes it over, not posted again, and is answerable', async () => {
    const slack = suite.slack
    const [first, second] = [await suite.serve('a'), await suite.serve('b')]
    // Slack posts the card, then holds its answer: the poster is killed before it hears the ts.
    slack.faults.inject('chat.postMessage', { answerAfterMs: 120_000 })
    const lost = post(first!, 'adopt-1').catch((error: unknown) => error)
    const card = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 15_000, message: 'Slack to take the card' })
    first!.run.child.kill('SIGKILL')
    await lost

    const retried = await post(second!, 'adopt-1')
    expect(retried.status).toBe(201)
    // The card names its ask for apps (Slack returns it from conversations.history with include_all_metadata).
    expect(card.metadata).toEqual({ event_type: 'dsh_slack_ask', event_payload: { ask_id: retried.body.id } })
    // Once the dead poster's claim runs out (15 s), the second instance takes the ask over and finds the card, or posts a second one.
    const adopted = await Promise.race([
      second!.run.waitForOutput(`ask ${retried.body.id as string}: its stopped instance had posted its card (ts ${card.ts})`).then(() => true),
      slack.waitFor(() => (topLevel(slack.messages(slack.defaultChannel)).length > 1 ? true : undefined), { timeoutMs: 40_000, message: 'the take-over' }).then(
        () => false,
        () => false,
      ),
    ])
    expect(topLevel(slack.messages(slack.defaultChannel))).toHaveLength(1)
    expect(adopted).toBe(true)

    const polling = fetch(`${second!.url}/v1/asks/${retried.body.id}?wait=30`).then(async (response) => (await response.json()) as Record<string, any>)
    await slack.user(ALICE).click(card, 'pnpm')
    const settled = await polling
    await slack.waitFor(
      () => {
        const message = slack.messages(slack.defaultChannel).find((m) => m.ts === card.ts)
        return message && interactiveElements(message).length === 0 ? message : undefined
      },
      { timeoutMs: 15_000, message: 'the card to lose its controls' },
    )

    expect(settled).toMatchObject({ id: retried.body.id, status: 'answered', answer: { answers: [{ id: 'pm', selected: ['pnpm'] }] } })
    expect(topLevel(slack.messages(slack.defaultChannel))).toHaveLength(1)
  }, 90_000)
})
