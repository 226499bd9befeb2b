import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { sha256 } from '../../src/policy/policy-file.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { recordingLogger } from '../support/e2e.js'
import { sandboxEnv } from '../support/sandbox-env.js'

// Issue 39, item 4: `rules: []` on a key is a promise ("no rule for this
// key: the defaults only"), not the same as leaving `rules:` out ("any
// rule"). Read as absent, the key's asks would fall under the laxest rule.
// Checked through the service, where it matters: whether a key's ask that a
// rule matches is refused or held to the defaults, it is never held to that
// rule.

const SECRETS = { ci: 'ci-secret-0123456789abcdef', laptop: 'laptop-secret-0123456789abcdef' }
const POLICY = `defaults:
  approvals: 2
rules:
  - name: lax
    approvals: 1
keys:
  - name: ci
    sha256: ${sha256(SECRETS.ci)}
    rules: []
  - name: laptop
    sha256: ${sha256(SECRETS.laptop)}
`

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-key-rules-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function serve(): Promise<RunningService> {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  const path = join(dir, 'policy.yml')
  writeFileSync(path, POLICY)
  const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0', DSH_SLACK_POLICY: path }), await serviceDeps(), recordingLogger())
  cleanups.push(() => service.stop())
  return service
}

/** The rule an ask sent with `secret` was held to, or the refusal's code. */
async function ruleFor(service: RunningService, secret: string): Promise<string> {
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
  const created = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers, body: JSON.stringify({ questions: [{ id: 'go', question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No' }] }] }) })
  const body = (await created.json()) as { id?: string; error?: { code: string } }
  if (created.status !== 201) return body.error?.code ?? String(created.status)
  const events = (await (await fetch(`${service.url}/v1/asks/${body.id}/events`, { headers })).json()) as { events: { type: string; rule?: string }[] }
  return events.events.find((event) => event.type === 'posted')?.rule ?? 'no posted event'
}

describe('a key whose rules: list is empty', () => {
  it('is never held to a rule, though one matches every ask: the defaults, or a refusal', async () => {
    const service = await serve()

    const ci = await ruleFor(service, SECRETS.ci)
    const laptop = await ruleFor(service, SECRETS.laptop)

    expect(['defaults', 'POLICY_FORBIDDEN']).toContain(ci)
    expect(laptop).toBe('lax')
  })
})
