import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadPolicyOffLoop } from '../../src/policy/load-policy-off-loop.js'
import { loadPolicyFile, PolicyFileError } from '../../src/policy/policy-file.js'
import { MAX_POLICY_BYTES, readPolicyText } from '../../src/policy/read-policy-text.js'

// Issue 48, item 8: a FIFO at the policy path jammed every later reload with
// no log line, and a 19 MB policy took 1.3 GB and 82 s to parse.

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-read-policy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const pathFor = (name: string) => join(dir, `${++files}-${name}`)
const GOOD = 'defaults:\n  approvals: 2\n'

function problemOf(read: () => unknown): PolicyFileError {
  try {
    read()
  } catch (error) {
    if (error instanceof PolicyFileError) return error
    throw error
  }
  throw new Error('the file was read')
}

describe('reading a policy file', () => {
  it('refuses a FIFO at once, without waiting for a writer, naming what it is', () => {
    const fifo = pathFor('policy.yml')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const started = performance.now()

    const error = problemOf(() => loadPolicyFile(fifo))

    expect(performance.now() - started).toBeLessThan(1000)
    expect(error.message).toBe(`${fifo}: is a FIFO (named pipe), not a regular file: it was not read (a policy file is a file; point DSH_SLACK_POLICY at one)`)
  })

  it('refuses a directory the same way', () => {
    const folder = pathFor('policy.d')
    mkdirSync(folder)

    expect(problemOf(() => loadPolicyFile(folder)).message).toMatch(/: is a directory, not a regular file/)
  })

  it(`reads a file of ${MAX_POLICY_BYTES} bytes (4 MiB) whole, and refuses one byte more before parsing any of it`, () => {
    const atCap = pathFor('at-cap.yml')
    const overCap = pathFor('over-cap.yml')
    const padded = (bytes: number) => `${GOOD}# ${'x'.repeat(bytes - GOOD.length - 3)}\n`
    writeFileSync(atCap, padded(MAX_POLICY_BYTES))
    writeFileSync(overCap, padded(MAX_POLICY_BYTES + 1))

    expect(readPolicyText(atCap)).toBe(padded(MAX_POLICY_BYTES))
    expect(problemOf(() => readPolicyText(overCap)).message).toBe(`${overCap}: is 4.0 MiB, more than a policy file may be (4.0 MiB, about 30,000 keys): it was not read`)
  })

  it('refuses a 20 MB file in well under a second, where parsing it took 82 s', () => {
    const huge = pathFor('huge.yml')
    writeFileSync(huge, `${GOOD}keys:\n${'  - name: k\n    sha256: "0000000000000000000000000000000000000000000000000000000000000000"\n'.repeat(250_000)}`)
    const started = performance.now()

    const error = problemOf(() => loadPolicyFile(huge))

    expect(performance.now() - started).toBeLessThan(1000)
    expect(error.message).toMatch(/: is 2\d\.\d MiB, more than a policy file may be \(4\.0 MiB, about 30,000 keys\): it was not read$/)
  })

  // /proc tells no size (0), so only the read itself can find the file too large; Linux only.
  it.runIf(existsSync('/proc/self/pagemap'))('refuses a file whose size the file system does not tell once it reads past the cap', () => {
    expect(problemOf(() => readPolicyText('/proc/self/pagemap')).message).toBe('/proc/self/pagemap: is more than a policy file may be (4.0 MiB, about 30,000 keys): it was not read')
  })

  it('says a missing file cannot be read, with its code', () => {
    expect(problemOf(() => loadPolicyFile(pathFor('missing.yml'))).message).toMatch(/missing\.yml: cannot be read: ENOENT$/)
  })
})

describe('a read on the policy thread', () => {
  it('ends the thread when its signal aborts, and rejects with the signal\'s reason', async () => {
    const marks = pathFor('marks')
    writeFileSync(marks, '')
    const workerFile = new URL('./fixtures/silent-policy-worker.mjs', import.meta.url)
    const controller = new AbortController()
    const reading = loadPolicyOffLoop(marks, [], { workerFile, signal: controller.signal })
    await expect.poll(() => readFileSync(marks, 'utf8').length, { timeout: 10_000 }).toBeGreaterThan(2)

    const reason = new Error('too slow')
    controller.abort(reason)

    await expect(reading).rejects.toBe(reason)
    // Terminating a thread is asynchronous: once its marks stop growing, it has ended.
    await expect.poll(async () => {
      const before = readFileSync(marks, 'utf8').length
      await new Promise((resolve) => setTimeout(resolve, 200))
      return readFileSync(marks, 'utf8').length - before
    }, { timeout: 10_000 }).toBe(0)
  })
})
