import { afterEach, describe, expect, it, vi } from 'vitest'
import { AskExpiry } from '../../src/bridge/ask-expiry.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('AskExpiry', () => {
  it('expires an ask once when its time comes, however often it is armed', async () => {
    vi.useFakeTimers()
    const expired: string[] = []
    const expiry = new AskExpiry({ now: Date.now, expire: (id) => expired.push(id) })

    expiry.arm({ id: 'a', expiresAt: Date.now() + 1_000 })
    expiry.arm({ id: 'a', expiresAt: Date.now() + 1_000 })
    expiry.arm({ id: 'no-expiry' })
    await vi.advanceTimersByTimeAsync(1_001)

    expect(expired).toEqual(['a'])
  })

  it('never expires an ask disarmed before its time, and holds no timer for it', async () => {
    vi.useFakeTimers()
    const expired: string[] = []
    const expiry = new AskExpiry({ now: Date.now, expire: (id) => expired.push(id) })
    expiry.arm({ id: 'a', expiresAt: Date.now() + 1_000 })
    expiry.arm({ id: 'b', expiresAt: Date.now() + 1_000 })

    expiry.disarm('a')
    expiry.stop()
    await vi.advanceTimersByTimeAsync(2_000)

    expect(expired).toEqual([])
    expect(expiry.armed).toBe(0)
  })
})
