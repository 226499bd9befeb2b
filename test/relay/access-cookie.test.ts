import { describe, expect, it } from 'vitest'
import { HostAccess } from '../../src/relay/host-access.js'
import type { HostHttp, HostHttpResponse } from '../../src/relay/host-http.js'
import { hostEndpoints } from '../../src/relay/host-url.js'
import { manualScheduler } from './support/manual-scheduler.js'

/** An HTTP port that answers logins from a script and counts them. */
function loginHttp(responses: HostHttpResponse[]): HostHttp & { calls: { url: string; headers: Record<string, string>; body: unknown }[] } {
  const calls: { url: string; headers: Record<string, string>; body: unknown }[] = []
  return {
    calls,
    async postJson(url, headers, body) {
      calls.push({ url, headers, body })
      const next = responses.shift()
      if (!next) throw new Error('no scripted response left')
      return next
    },
    close: async () => {},
  }
}

const issued = (value: string, maxAge = 604_800): HostHttpResponse => ({
  status: 204,
  headers: { 'set-cookie': [`other=1; Path=/`, `dsh_access=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}`] },
  text: '',
})

/** A HostAccess for a host that has asked for the secret (answered 401). */
function gatedAccess(...args: ConstructorParameters<typeof HostAccess>): HostAccess {
  const access = new HostAccess(...args)
  access.markGated()
  return access
}

describe('HostAccess', () => {
  const endpoints = hostEndpoints('http://localhost:4000')

  it('sends nothing until the host asks for the secret', async () => {
    const http = loginHttp([])
    const access = new HostAccess(endpoints, 'correct-horse-battery-staple', http, manualScheduler())

    expect(await access.ensure()).toEqual({ ok: true })

    expect(http.calls).toEqual([])
    expect(access.headers()).toEqual({ host: 'localhost:4000' })
  })

  it.each([404, 405])('takes a login answered %i as a host without an access gate', async (status) => {
    const http = loginHttp([{ status, headers: {}, text: '' }])
    const access = gatedAccess(endpoints, 'correct-horse-battery-staple', http, manualScheduler())

    expect(await access.ensure()).toEqual({ ok: true })

    expect(access.lastFailure).toBeUndefined()
    expect(access.gated).toBe(false)
    expect(access.headers()).toEqual({ host: 'localhost:4000' })
  })

  it('logs in with the secret and the Host header, then sends the cookie it was given', async () => {
    const http = loginHttp([issued('123.abc')])
    const access = gatedAccess(endpoints, 'correct-horse-battery-staple', http, manualScheduler())

    expect(await access.ensure()).toEqual({ ok: true })

    expect(http.calls).toEqual([{ url: 'http://localhost:4000/__dsh/access', headers: { host: 'localhost:4000' }, body: { secret: 'correct-horse-battery-staple' } }])
    expect(access.headers()).toEqual({ host: 'localhost:4000', cookie: 'dsh_access=123.abc' })
  })

  it("keeps the cookie until its Max-Age is nearly over, then logs in again", async () => {
    const http = loginHttp([issued('first', 3600), issued('second', 3600)])
    const scheduler = manualScheduler()
    const access = gatedAccess(endpoints, 'correct-horse-battery-staple', http, scheduler)
    await access.ensure()

    scheduler.after(3_000_000, () => {})
    scheduler.fireNext()
    await access.ensure()
    expect(http.calls).toHaveLength(1)

    scheduler.after(600_000, () => {})
    scheduler.fireNext()
    await access.ensure()

    expect(http.calls).toHaveLength(2)
    expect(access.headers().cookie).toBe('dsh_access=second')
  })

  it('shares one login between concurrent callers', async () => {
    const http = loginHttp([issued('once')])
    const access = gatedAccess(endpoints, 'correct-horse-battery-staple', http, manualScheduler())

    await Promise.all([access.ensure(), access.ensure(), access.ensure()])

    expect(http.calls).toHaveLength(1)
  })

  it.each([
    [401, 'WRONG_SECRET'],
    [429, 'LOGIN_RATE_LIMITED'],
    [503, 'HOST_UNREACHABLE'],
    [200, 'HOST_REFUSED'],
  ] as const)('turns a login answered %i into %s', async (status, code) => {
    const access = gatedAccess(endpoints, 'correct-horse-battery-staple', loginHttp([{ status, headers: {}, text: '' }]), manualScheduler())

    const result = await access.ensure()

    expect(result).toMatchObject({ ok: false, error: { name: 'RelayError', code } })
  })

  it('sends only the Host header when no secret is configured', async () => {
    const http = loginHttp([])
    const access = new HostAccess(endpoints, undefined, http, manualScheduler())

    expect(await access.ensure()).toEqual({ ok: true })

    expect(access.headers()).toEqual({ host: 'localhost:4000' })
    expect(http.calls).toHaveLength(0)
  })
})
