import { openSync, closeSync, writeSync, writeFileSync } from 'node:fs'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { parsePolicy, sha256 } from '../../src/policy/policy-file.js'
import type { RunningService } from '../../src/service/start-service.js'
import { policyServices } from '../support/policy-services.js'

// Issue 48, item 4: a reload of a truncated or slowly written file that keeps
// its keys dropped the rules, and a plan asking one approval got 201 where
// the strict rule gives 403. A change picked up from the file may now only
// tighten; SIGHUP applies a loosening on purpose (decision 0088).

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const SECRET = 'team-a-secret-0123456789'
const OTHER = 'team-b-secret-0123456789'
/** The keys first, as many files are written: a file cut after them still parses, and still has keys. */
const KEYS = `keys:
  - name: teamA
    sha256: ${sha256(SECRET)}
  - name: teamB
    sha256: ${sha256(OTHER)}
`
const STRICT = `${KEYS}defaults:
  answerers: [${ALICE}, ${BOB}]
  approvers: [${ALICE}, ${BOB}]
  approvals: 2
`

const services = policyServices('tighten')

const healthVersion = async (service: RunningService) => ((await (await fetch(`${service.url}/healthz`)).json()) as { policy: string }).policy
const metricsText = async (service: RunningService) => (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${SECRET}` } })).text()
/** A plan review asking for one approval: 403 while the two-person rule is in force, 201 once it is gone. */
const onePersonPlan = async (service: RunningService, secret = SECRET) =>
  (await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ questions: [planReviewQuestion('# Plan')], policy: { approvals: 1 } }) })).status
const refusedLine = /^error policy not reloaded \(the file changed\); version \w+ stays in force: the new file is looser than the policy in force \(.*\); a change picked up from the file may only tighten\. To apply it on purpose, send SIGHUP/
const refusals = (lines: string[]) => lines.filter((line) => line.startsWith('error policy not reloaded'))
/** Until the service has read the change, whatever it made of it: refused, or (as before issue 48) put in force. */
const readBy = (logger: { lines: string[] }) => vi.waitFor(() => expect(logger.lines.some((line) => /^(error policy not reloaded|info policy reloaded) \(the file changed\)/.test(line))).toBe(true), { timeout: 10_000, interval: 50 })

describe('a change picked up from the policy file', () => {
  it.each([
    ['cut after its keys', KEYS],
    ['cut halfway through its defaults', `${KEYS}defaults:\n  answerers: [${ALICE}, ${BOB}]\n`],
    ['its keys with `defaults: {}`', `${KEYS}defaults: {}\n`],
  ])('keeps the two-person rule when the file is %s, with one error line and a `looser` refusal counted', async (_name, text) => {
    const { path, service, logger } = await services.serve(STRICT)
    const before = await healthVersion(service)

    writeFileSync(path, text)
    await readBy(logger)

    expect(await onePersonPlan(service)).toBe(403)
    expect(await healthVersion(service)).toBe(before)
    expect(refusals(logger.lines)).toEqual([expect.stringMatching(refusedLine)])
    expect(await metricsText(service)).toMatch(/^dsh_slack_policy_reloads_refused_total\{reason="looser"\} 1$/m)
  })

  it('keeps the two-person rule while a writer pauses 2.2 s halfway (past the second a file must be still), and takes nothing when it is done', async () => {
    const { path, service, logger } = await services.serve(STRICT)
    const before = await healthVersion(service)
    const seen = new Set<string>()
    const watching = setInterval(() => void healthVersion(service).then((version) => seen.add(version), () => undefined), 25)
    onTestFinished(() => clearInterval(watching))
    const fd = openSync(path, 'w')

    writeSync(fd, STRICT.slice(0, STRICT.indexOf('  approvals: 2')))
    await readBy(logger)
    const duringThePause = await onePersonPlan(service)
    await new Promise((resolve) => setTimeout(resolve, 2200))
    writeSync(fd, STRICT.slice(STRICT.indexOf('  approvals: 2')))
    closeSync(fd)
    // The whole file again: its version is the one in force, so the next read changes nothing and says nothing.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    clearInterval(watching)

    expect(duringThePause).toBe(403)
    expect(await onePersonPlan(service)).toBe(403)
    expect(refusals(logger.lines)).toEqual([expect.stringMatching(refusedLine)])
    expect([...seen]).toEqual([before])
    expect(logger.lines.filter((line) => line.startsWith('info policy reloaded'))).toEqual([])
  })

  it('takes a change that only tightens: a key revoked, a rule added that asks more', async () => {
    const { path, service, logger } = await services.serve(STRICT)
    const tighter = `${STRICT.replace(/  - name: teamB\n    sha256: \w+\n/, '')}rules:\n  - name: payments\n    match: { title: "Payments*" }\n    approvers: [${ALICE}]\n`

    writeFileSync(path, tighter)
    await vi.waitFor(async () => expect(await healthVersion(service)).toBe(parsePolicy(tighter, path).version), { timeout: 10_000, interval: 50 })

    expect(await onePersonPlan(service, OTHER)).toBe(401)
    expect(logger.lines).toContainEqual(expect.stringMatching(/^info policy reloaded \(the file changed\): version \w+ → \w+; open asks keep the rules they were opened under$/))
  })

  it('is applied on SIGHUP after it was refused: the operator loosens on purpose, and the log says what loosened', async () => {
    const { path, service, logger } = await services.serve(STRICT)
    const looser = `${KEYS}defaults:\n  answerers: [${ALICE}, ${BOB}]\n  approvals: 1\n`
    writeFileSync(path, looser)
    await vi.waitFor(() => expect(logger.lines).toContainEqual(expect.stringMatching(refusedLine)), { timeout: 10_000, interval: 50 })

    process.emit('SIGHUP', 'SIGHUP')
    await vi.waitFor(async () => expect(await healthVersion(service)).toBe(parsePolicy(looser, path).version), { timeout: 10_000, interval: 50 })

    expect(await onePersonPlan(service)).toBe(201)
    expect(logger.lines).toContainEqual(expect.stringMatching(/^info policy reloaded \(SIGHUP\): version \w+ → \w+, loosened on purpose \(defaults: approvals 2 → 1\); open asks keep the rules they were opened under$/))
  })
})
