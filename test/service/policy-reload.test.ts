import { writeFileSync } from 'node:fs'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { parsePolicy, PolicyFileError, sha256 } from '../../src/policy/policy-file.js'
import { RELOAD_STABLE_MS } from '../../src/service/service-policy.js'
import type { RunningService } from '../../src/service/start-service.js'
import { policyServices } from '../support/policy-services.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const SECRET = 'team-a-secret-0123456789'
/** Keys only in the file, and plans that need alice and bob both: what issue 40 saw vanish on an empty reload. */
const GOOD = `defaults:
  answerers: [${ALICE}, ${BOB}]
  approvers: [${ALICE}, ${BOB}]
  approvals: 2
keys:
  - name: teamA
    sha256: ${sha256(SECRET)}
`
const NOTHING = { empty: '', 'comments only': '# the policy\n# (to be written)\n', null: 'null\n', 'a bare document marker': '---\n', 'version alone': 'version: 1\n' }

const services = policyServices('reload')
const serve = () => services.serve(GOOD)

const healthVersion = async (service: RunningService) => ((await (await fetch(`${service.url}/healthz`)).json()) as { policy: string }).policy
const listWithoutKey = async (service: RunningService) => (await fetch(`${service.url}/v1/asks`)).status
const metricsText = async (service: RunningService) => (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${SECRET}` } })).text()

describe('a policy file that defines nothing', () => {
  it.each(Object.entries(NOTHING))('is invalid when it is %s, for policy check as for the service', (_name, text) => {
    expect(() => parsePolicy(text, 'policy.yml')).toThrow(PolicyFileError)
    expect(() => parsePolicy(text, 'policy.yml')).toThrow(/^policy\.yml: defines nothing/)
  })
})

describe('a reload never fails open', () => {
  it.each(Object.entries(NOTHING).slice(0, 3))('keeps the old policy, keys and two-person rule when the file becomes %s, and says so once with a metric', async (_name, text) => {
    const { path, service, logger } = await serve()
    const before = await healthVersion(service)

    writeFileSync(path, text)
    await vi.waitFor(() => expect(logger.lines).toContainEqual(expect.stringMatching(/^error policy not reloaded \(the file changed\); version \w+ stays in force: .*defines nothing/)), { timeout: 10_000, interval: 50 })

    expect(await healthVersion(service)).toBe(before)
    expect(await listWithoutKey(service)).toBe(401)
    const plan = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify({ questions: [planReviewQuestion('# Plan')], policy: { approvals: 1 } }) })
    expect(plan.status).toBe(403)
    expect(await metricsText(service)).toMatch(/^dsh_slack_policy_reloads_refused_total\{reason="invalid"\} 1$/m)
  })

  it('refuses a valid file that drops every key of a keyed service (the first lines of a half-written file), naming why', async () => {
    const { path, service, logger } = await serve()
    const before = await healthVersion(service)

    writeFileSync(path, GOOD.split('keys:')[0]!)
    await vi.waitFor(() => expect(logger.lines).toContainEqual(expect.stringMatching(/^error policy not reloaded \(the file changed\); version \w+ stays in force: the new file names no API key while 1 are in force/)), { timeout: 10_000, interval: 50 })

    expect(await healthVersion(service)).toBe(before)
    expect(await listWithoutKey(service)).toBe(401)
    expect(await metricsText(service)).toMatch(/^dsh_slack_policy_reloads_refused_total\{reason="drops-every-key"\} 1$/m)
  })

  it('refuses a reload that would leave a service answering any Host name (DSH_SLACK_ALLOWED_HOSTS=*) without a key', async () => {
    const { path, service, logger } = await services.serve(GOOD, { env: { DSH_SLACK_ALLOWED_HOSTS: '*' } })

    writeFileSync(path, GOOD.split('keys:')[0]!)
    await vi.waitFor(() => expect(logger.lines).toContainEqual(expect.stringMatching(/^error policy not reloaded \(the file changed\); version \w+ stays in force: .*DSH_SLACK_ALLOWED_HOSTS/)), { timeout: 10_000, interval: 50 })

    expect(await listWithoutKey(service)).toBe(401)
    expect(await metricsText(service)).toMatch(/^dsh_slack_policy_reloads_refused_total\{reason="opens-service"\} 1$/m)
  })

  it('waits for a writer that pauses mid-file: the half written first is never in force, the whole file is', async () => {
    const { path, service, logger } = await serve()
    const before = await healthVersion(service)
    // Both halves tighten (a change from the file may only tighten): what is tested is that the first is never read.
    const half = `${GOOD}rules:\n  - name: payments\n    approvers: [${ALICE}]\n`
    const whole = `${half}    match: { title: "Payments*" }\n`
    const seen = new Set<string>()
    const watching = setInterval(() => void healthVersion(service).then((version) => seen.add(version), () => undefined), 25)
    onTestFinished(() => clearInterval(watching))

    writeFileSync(path, half)
    await new Promise((resolve) => setTimeout(resolve, RELOAD_STABLE_MS / 2))
    writeFileSync(path, whole)
    const wholeVersion = parsePolicy(whole, path).version
    await vi.waitFor(async () => expect(await healthVersion(service)).toBe(wholeVersion), { timeout: 10_000, interval: 50 })
    clearInterval(watching)
    // The watcher's reads lag under load; the version in force now is one it saw, whether or not its read had come back.
    seen.add(await healthVersion(service))

    const reloads = logger.lines.filter((line) => line.startsWith('info policy reloaded'))
    expect(reloads).toHaveLength(1)
    expect([...seen].filter((version) => version !== before)).toEqual([wholeVersion])
  })
})
