import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { waitFor } from '../../src/sandbox/wait.js'

let sandbox: Sandbox | undefined
afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

describe('the stand-in workspace’s change listeners', () => {
  it('lets many waits follow changes at once without a MaxListenersExceededWarning, and none stays after', async () => {
    sandbox = await startSandbox()
    const warnings: string[] = []
    const onWarning = (warning: Error): void => void warnings.push(warning.name)
    process.on('warning', onWarning)
    const workspace = sandbox.workspace
    let released = false
    const waits = Array.from({ length: 50 }, () => waitFor(workspace, () => released, { timeoutMs: 5000 }))
    await new Promise((resolve) => setImmediate(resolve))

    const during = workspace.listenerCount('change')
    released = true
    await Promise.all(waits)
    await new Promise((resolve) => setImmediate(resolve))
    process.off('warning', onWarning)

    expect(during).toBeGreaterThanOrEqual(50)
    expect(workspace.listenerCount('change')).toBe(during - 50)
    expect(warnings).not.toContain('MaxListenersExceededWarning')
  })
})
