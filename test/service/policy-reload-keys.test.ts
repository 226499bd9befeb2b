import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/config/config.js'
import { servicePolicy, watchPolicy, type PolicyReloader } from '../../src/service/service-policy.js'
import { recordingLogger } from '../support/e2e.js'

// Issue 39, item 4: a service that may only run because its policy file
// names a key (a non-loopback HOST, or DSH_SLACK_ALLOWED_HOSTS='*') must not
// take a reload that drops every key: the API would be open to anyone on the
// network (or any web page) until the next restart refused it.

const WITH_KEY = `defaults:
  approvals: 1
keys:
  - name: ci
    sha256: ${'c'.repeat(64)}
`
const WITHOUT_KEY = 'defaults:\n  approvals: 2\n'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-reload-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const reloaders: PolicyReloader[] = []
afterEach(() => reloaders.splice(0).forEach((reloader) => reloader.stop()))

const exposures: [string, Record<string, string>][] = [
  ['HOST is not a loopback address', { HOST: '0.0.0.0' }],
  ["DSH_SLACK_ALLOWED_HOSTS is '*'", { DSH_SLACK_ALLOWED_HOSTS: '*' }],
]

describe.each(exposures)('a policy reload whose file names no key, when %s', (_, env) => {
  it('is refused with the reason logged, and the policy with the key stays in force', async () => {
    const path = join(dir, `policy-${env.HOST ?? 'star'}.yml`)
    writeFileSync(path, WITH_KEY)
    const config = configFromEnv({ DSH_SLACK_POLICY: path, DSH_SLACK_STATE: ':memory:', ...env })
    const logger = recordingLogger()
    const holder = servicePolicy(config, undefined, logger)
    const before = holder.current
    const reloader = watchPolicy({ path, holder, config, logger, signals: false })
    reloaders.push(reloader)

    writeFileSync(path, WITHOUT_KEY)
    // Awaited: a reload may read the file off the event loop.
    const taken = await reloader.reload('SIGHUP')

    expect(taken).toBe(false)
    expect(holder.current).toBe(before)
    expect(holder.current.keys.map((key) => key.name)).toEqual(['ci'])
    expect(logger.lines).toContainEqual(expect.stringMatching(/^error policy not reloaded \(SIGHUP\); version \w+ stays in force: .*(DSH_SLACK_API_KEY|DSH_SLACK_ALLOWED_HOSTS)/))
  })
})
