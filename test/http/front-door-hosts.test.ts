/**
 * The front door's Host check remembers the Host headers it allowed (a
 * client sends the same one on every request), and never one it refused.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createFrontDoor, HOSTS_REMEMBERED } from '../../src/http/front-door.js'

const RealURL = globalThis.URL
let built = 0

/** Counts the URLs built from here on (the check parses a Host it has not seen with one). */
function countUrls(): void {
  built = 0
  globalThis.URL = new Proxy(RealURL, {
    construct(target, args: ConstructorParameters<typeof URL>) {
      built++
      return new target(...args)
    },
  })
}

afterEach(() => {
  globalThis.URL = RealURL
})

describe('the front door: Host headers remembered', () => {
  it('parses a Host it allowed once, however many requests carry it', () => {
    const door = createFrontDoor({ bindHost: '127.0.0.1' })
    countUrls()

    const answers = Array.from({ length: 5 }, () => door.hostAllowed('127.0.0.1:3000'))

    expect(answers).toEqual([true, true, true, true, true])
    expect(built).toBe(1)
  })

  it('refuses a rebound name on every request, not only the first (refusals are never remembered)', () => {
    const door = createFrontDoor({ bindHost: '127.0.0.1' })

    const answers = [door.hostAllowed('evil.example:3000'), door.hostAllowed('evil.example:3000')]

    expect(answers).toEqual([false, false])
  })

  it('keeps allowing and refusing by the rules once it remembers as many hosts as it keeps', () => {
    const door = createFrontDoor({ bindHost: '127.0.0.1', allowedHosts: ['proxy.internal'] })
    for (let i = 0; i < HOSTS_REMEMBERED + 10; i++) expect(door.hostAllowed(`10.0.${Math.floor(i / 250)}.${i % 250}:3000`)).toBe(true)
    countUrls()

    const answers = [door.hostAllowed('proxy.internal'), door.hostAllowed('proxy.internal'), door.hostAllowed('evil.example')]

    expect(answers).toEqual([true, true, false])
    // Past the limit nothing more is kept: each of these was parsed.
    expect(built).toBe(3)
  })
})
