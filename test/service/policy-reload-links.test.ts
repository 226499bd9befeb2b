import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { parsePolicy, sha256 } from '../../src/policy/policy-file.js'
import type { RunningService } from '../../src/service/start-service.js'
import { linksOf } from '../../src/service/watch-policy-path.js'
import { policyServices } from '../support/policy-services.js'

// Issue 48, item 5: a policy path that is a symbolic link never reloaded
// when the file it points to changed (9 edits, no log line); only swapping
// the link itself did. A Kubernetes ConfigMap mount is exactly this, so a
// key revoked there stayed valid, silently.

const ALICE = 'U0SANDBOX01'
const KEPT = 'team-a-secret-0123456789'
const REVOKED = 'team-b-secret-0123456789'
const BOTH_KEYS = `defaults:
  answerers: [${ALICE}]
  approvals: 1
keys:
  - name: teamA
    sha256: ${sha256(KEPT)}
  - name: teamB
    sha256: ${sha256(REVOKED)}
`
/** teamB's key revoked: a tightening, so a change picked up from the file applies it. */
const ONE_KEY = BOTH_KEYS.replace(/  - name: teamB\n    sha256: \w+\n/, '')

// Real, so the folders linksOf names are the ones written here even where the temporary folder is itself a link.
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-slack-links-')))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let folders = 0
const folder = (name: string) => {
  const path = join(dir, `${++folders}-${name}`)
  mkdirSync(path)
  return path
}

const services = policyServices('links')
const serveAt = (path: string) => services.serve(BOTH_KEYS, { env: { DSH_SLACK_POLICY: path } })
const listStatus = async (service: RunningService, secret: string) => (await fetch(`${service.url}/v1/asks`, { headers: { authorization: `Bearer ${secret}` } })).status
const revoked = async (service: RunningService) => {
  await vi.waitFor(async () => expect(await listStatus(service, REVOKED)).toBe(401), { timeout: 10_000, interval: 50 })
  expect(await listStatus(service, KEPT)).toBe(200)
}

describe('a policy path that is a symbolic link', () => {
  it('reloads when the file it points to, in another folder, is edited in place', async () => {
    const target = join(folder('policies'), 'prod.yml')
    writeFileSync(target, BOTH_KEYS)
    const link = join(folder('etc'), 'policy.yml')
    symlinkSync(target, link)
    const { service, logger } = await serveAt(link)
    expect(await listStatus(service, REVOKED)).toBe(200)

    writeFileSync(target, ONE_KEY)

    await revoked(service)
    expect(logger.lines).toContainEqual(expect.stringMatching(/^info policy reloaded \(the file changed\)/))
  })

  it('follows the link when it is pointed at a file in another folder, and then reloads that file\'s edits', async () => {
    // Named unlike the link: the link's own rename is what must be seen.
    const v1 = join(folder('release-1'), 'prod-1.yml')
    const v2 = join(folder('release-2'), 'prod-2.yml')
    const stricter = BOTH_KEYS.replace('approvals: 1', 'approvals: 2')
    writeFileSync(v1, BOTH_KEYS)
    writeFileSync(v2, stricter)
    const etc = folder('etc')
    const link = join(etc, 'policy.yml')
    symlinkSync(v1, link)
    const { service } = await serveAt(link)

    symlinkSync(v2, join(etc, 'policy.yml.new'))
    renameSync(join(etc, 'policy.yml.new'), link)
    await vi.waitFor(async () => expect(((await (await fetch(`${service.url}/healthz`)).json()) as { policy: string }).policy).toBe(parsePolicy(stricter, link).version), { timeout: 10_000, interval: 50 })
    writeFileSync(v2, ONE_KEY.replace('approvals: 1', 'approvals: 2'))

    await revoked(service)
  })

  it('reads nothing for a change to another file in a folder it watches: a refused change is said once', async () => {
    const policies = folder('policies')
    const target = join(policies, 'prod.yml')
    writeFileSync(target, BOTH_KEYS)
    const link = join(folder('etc'), 'policy.yml')
    symlinkSync(target, link)
    const { logger } = await serveAt(link)
    writeFileSync(target, BOTH_KEYS.replace(`answerers: [${ALICE}]`, 'answerers: []'))
    await vi.waitFor(() => expect(logger.lines).toContainEqual(expect.stringMatching(/^error policy not reloaded \(the file changed\).*looser than the policy in force \(defaults: answerers anyone who sees the card/)), { timeout: 10_000, interval: 50 })

    for (const name of ['staging.yml', 'notes.txt', 'prod.yml.bak']) writeFileSync(join(policies, name), 'something else\n')
    await new Promise((resolve) => setTimeout(resolve, 2000))

    expect(logger.lines.filter((line) => line.startsWith('error policy not reloaded'))).toHaveLength(1)
  })

  it('reloads a Kubernetes ConfigMap update: a new data folder, and `..data` renamed over the old link', async () => {
    // The layout kubelet's atomic writer makes: policy.yml -> ..data/policy.yml, ..data -> ..<timestamp>.
    const mount = folder('configmap')
    mkdirSync(join(mount, '..2026_01_01_00_00_00.1'))
    writeFileSync(join(mount, '..2026_01_01_00_00_00.1', 'policy.yml'), BOTH_KEYS)
    symlinkSync('..2026_01_01_00_00_00.1', join(mount, '..data'))
    symlinkSync('..data/policy.yml', join(mount, 'policy.yml'))
    const { service } = await serveAt(join(mount, 'policy.yml'))
    expect(await listStatus(service, REVOKED)).toBe(200)

    mkdirSync(join(mount, '..2026_01_01_00_05_00.2'))
    writeFileSync(join(mount, '..2026_01_01_00_05_00.2', 'policy.yml'), ONE_KEY)
    symlinkSync('..2026_01_01_00_05_00.2', join(mount, '..data_tmp'))
    renameSync(join(mount, '..data_tmp'), join(mount, '..data'))

    // Before kubelet removes the old folder: the swap of `..data` is the change.
    await revoked(service)
    rmSync(join(mount, '..2026_01_01_00_00_00.1'), { recursive: true })
  })

  it('names every folder a change can come from: the mount\'s own (the links) and the data folder (the file)', () => {
    const mount = folder('configmap')
    mkdirSync(join(mount, '..2026_01_01_00_00_00.1'))
    writeFileSync(join(mount, '..2026_01_01_00_00_00.1', 'policy.yml'), BOTH_KEYS)
    symlinkSync('..2026_01_01_00_00_00.1', join(mount, '..data'))
    symlinkSync('..data/policy.yml', join(mount, 'policy.yml'))
    const plain = join(folder('plain'), 'policy.yml')
    writeFileSync(plain, BOTH_KEYS)

    expect(linksOf(join(mount, 'policy.yml'))).toEqual({ file: join(mount, '..2026_01_01_00_00_00.1', 'policy.yml'), folders: [mount, join(mount, '..2026_01_01_00_00_00.1')], linked: true })
    expect(linksOf(plain)).toEqual({ file: plain, folders: [join(plain, '..')], linked: false })
  })
})
