import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/config/config.js'
import type { OperatorPolicy } from '../../src/policy/operator-policy.js'
import { parsePolicy } from '../../src/policy/policy-file.js'
import { servicePolicy, watchPolicy, type PolicyLoader, type PolicyReloader, type ReloadRefusal } from '../../src/service/service-policy.js'
import { recordingLogger } from '../support/e2e.js'

// Issue 48, item 7: two reloads running at once left the older file in
// force when it parsed more slowly, and nothing tested the order. And item
// 8: a read that never came back (a FIFO) jammed every later reload with no
// log line. The loader is the port a reload reads through (off the event
// loop in the service), so a test can make one read slow, or never answer.

const BASE = 'defaults:\n  answerers: [U0SANDBOX01, U0SANDBOX02]\n  approvals: 1\n'
const OLDER = parsePolicy(`${BASE}  remindAfter: 30m\n`, 'policy.yml')
const NEWER = parsePolicy(`${BASE}  remindAfter: 15m\n`, 'policy.yml')

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-reload-order-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const reloaders: PolicyReloader[] = []
afterEach(() => reloaders.splice(0).forEach((reloader) => reloader.stop()))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function reloaderWith(load: PolicyLoader, deadlineMs?: number, now?: () => number) {
  const path = join(dir, `policy-${reloaders.length}.yml`)
  writeFileSync(path, BASE)
  const config = configFromEnv({ DSH_SLACK_POLICY: path, DSH_SLACK_STATE: ':memory:' })
  const logger = recordingLogger()
  const holder = servicePolicy(config, undefined, logger)
  const refused: ReloadRefusal[] = []
  const reloader = watchPolicy({ path, holder, config, logger, signals: false, load, onRefused: (reason) => refused.push(reason), ...(deadlineMs !== undefined ? { deadlineMs } : {}), ...(now ? { now } : {}) })
  reloaders.push(reloader)
  return { path, holder, logger, reloader, refused }
}

describe('reloads asked for one after another', () => {
  it('leave the newer file in force when the older one parses more slowly', async () => {
    const reads: OperatorPolicy[] = [OLDER, NEWER]
    const { holder, reloader } = reloaderWith(async () => {
      const policy = reads.shift()!
      if (policy === OLDER) await sleep(300)
      return policy
    })

    // Two SIGHUPs (the file edited between them): a SIGHUP applies even a loosening, so only the order decides.
    const results = await Promise.all([reloader.reload('SIGHUP'), reloader.reload('SIGHUP')])

    expect(results).toEqual([true, true])
    expect(holder.current.version).toBe(NEWER.version)
  })

  it('read the file one at a time, each once the one before has finished', async () => {
    let reading = 0
    let most = 0
    const { reloader } = reloaderWith(async () => {
      most = Math.max(most, ++reading)
      await sleep(50)
      reading--
      return NEWER
    })

    await Promise.all([reloader.reload('SIGHUP'), reloader.reload('the file changed'), reloader.reload('SIGHUP')])

    expect(most).toBe(1)
  })
})

describe('a change picked up from the file', () => {
  it('is read once: a second one queued behind it, with the file as it was, reads nothing and repeats no refusal', async () => {
    let reads = 0
    const loose = parsePolicy(BASE.replace('[U0SANDBOX01, U0SANDBOX02]', '[]'), 'policy.yml')
    // The clock a minute on: the file has been still long enough to be read.
    const { path, logger, reloader, refused } = reloaderWith(async () => (reads++, loose), undefined, () => Date.now() + 60_000)
    writeFileSync(path, `${BASE}# edited\n`)

    const results = await Promise.all([reloader.reload('the file changed'), reloader.reload('the file changed')])

    expect(results).toEqual([false, false])
    expect(reads).toBe(1)
    expect(refused).toEqual(['looser'])
    expect(logger.lines.filter((line) => line.startsWith('error'))).toHaveLength(1)
  })
})

describe('a reload whose read never answers', () => {
  it('is abandoned at the deadline with one line and a timed-out refusal, and the next reload is read as usual', async () => {
    let signalOfFirst: AbortSignal | undefined
    const { holder, logger, reloader, refused } = reloaderWith((_path, _keys, signal) => {
      if (signalOfFirst !== undefined) return Promise.resolve(NEWER)
      signalOfFirst = signal
      // Never answers, as a read stuck on a FIFO or a stalled mount: the deadline must not rely on the loader giving up.
      return new Promise<OperatorPolicy>(() => undefined)
    }, 200)
    const before = holder.current.version

    const stuck = await reloader.reload('SIGHUP')
    const next = await reloader.reload('SIGHUP')

    expect(stuck).toBe(false)
    expect(signalOfFirst?.aborted).toBe(true)
    expect(refused).toEqual(['timed-out'])
    expect(logger.lines.filter((line) => line.startsWith('error'))).toEqual([expect.stringMatching(new RegExp(`^error policy not reloaded \\(SIGHUP\\); version ${before} stays in force: .*policy-\\d\\.yml: reading and checking it took longer than 0\\.2 s; it was abandoned`))])
    expect(next).toBe(true)
    expect(holder.current.version).toBe(NEWER.version)
  })
})
