import { afterEach, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/config/config.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { recordingLogger } from '../support/e2e.js'
import { visibleText } from '../support/messages.js'
import { sandboxEnv } from '../support/sandbox-env.js'

// Issue 39, item 4: an Idempotency-Key belongs to the API key that sent it.
// Two agents with different keys that happen to pick the same key (a
// counter, a build number) each get their own ask; scoping it only where it
// is stored, not where it is built, would hand the second agent the first
// one's ask (and its answer).

const KEYS = { one: 'secret-one-0123456789abcdef', two: 'secret-two-0123456789abcdef' }
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function post(service: RunningService, secret: string, idempotencyKey: string, question: string) {
  const response = await fetch(`${service.url}/v1/asks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ questions: [{ id: 'go', question, options: [{ label: 'Yes' }, { label: 'No' }] }] }),
  })
  return { status: response.status, body: (await response.json()) as { id: string; status: string } }
}

describe('one Idempotency-Key sent with two API keys', () => {
  it('makes two asks, each posted once, and a retry with either key finds its own', async () => {
    const slack = await startSandbox()
    cleanups.push(() => slack.close())
    const env = { ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0', DSH_SLACK_API_KEYS: `one:${KEYS.one},two:${KEYS.two}` }
    const service = await startService(configFromEnv(env), await serviceDeps(), recordingLogger())
    cleanups.push(() => service.stop())

    const first = await post(service, KEYS.one, 'build-42', 'Deploy build 42 (agent one)?')
    const second = await post(service, KEYS.two, 'build-42', 'Deploy build 42 (agent two)?')
    const retryOne = await post(service, KEYS.one, 'build-42', 'Deploy build 42 (agent one)?')
    const retryTwo = await post(service, KEYS.two, 'build-42', 'Deploy build 42 (agent two)?')

    expect([first.status, second.status]).toEqual([201, 201])
    expect(second.body.id).not.toBe(first.body.id)
    expect(retryOne.body.id).toBe(first.body.id)
    expect(retryTwo.body.id).toBe(second.body.id)
    const texts = slack.messages(slack.defaultChannel).map((message) => visibleText(message))
    expect(texts.filter((text) => text.includes('agent one'))).toHaveLength(1)
    expect(texts.filter((text) => text.includes('agent two'))).toHaveLength(1)
  })
})
