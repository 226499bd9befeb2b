import { createServer, type RequestListener } from 'node:http'
import { describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/config/config.js'
import type { DoctorSlack } from '../../src/cli/doctor/doctor-port.js'
import { MANIFEST_BOT_SCOPES } from '../../src/cli/doctor/manifest-scopes.js'
import { runDoctorChecks } from '../../src/cli/doctor/run-checks.js'
import { formatCheck } from '../../src/cli/doctor.js'
import { SlackCallError } from '../../src/slack/slack-call-error.js'

const base = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', SLACK_CHANNEL: 'C0123ABCDEF' }

/** Slack as doctor sees it, answering as configured. */
function fakeSlack(overrides: Partial<DoctorSlack> = {}): DoctorSlack {
  return {
    authTest: async () => ({ team: 'Acme', user: 'dsh-slack', scopes: [...MANIFEST_BOT_SCOPES] }),
    conversationInfo: async () => ({ name: 'agents', isMember: true, isPrivate: false, isArchived: false }),
    openDm: async () => 'D0DM',
    openSocketConnection: async () => undefined,
    ...overrides,
  }
}

/** Nothing answers on the API's port: these tests are about Slack (the probe itself is tested below). */
const nothingListens = { probeApi: async () => 'nothing' as const }

async function check(env: Record<string, string>, slack: DoctorSlack) {
  const results = await runDoctorChecks(configFromEnv(env), slack, nothingListens)
  return Object.fromEntries(results.map((result) => [result.name, result]))
}

/** An HTTP server on a free loopback port. */
async function listen(handler: RequestListener): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe('doctor’s checks', () => {
  it('accepts a public channel the bot is not in when chat:write.public is granted', async () => {
    const results = await check(base, fakeSlack({ conversationInfo: async () => ({ name: 'general', isMember: false, isPrivate: false, isArchived: false }) }))

    expect(results.channel).toMatchObject({ ok: true, detail: expect.stringContaining('chat:write.public') })
  })

  it('asks for an invitation to a private channel the bot is not in', async () => {
    const results = await check(base, fakeSlack({ conversationInfo: async () => ({ name: 'secret', isMember: false, isPrivate: true, isArchived: false }) }))

    expect(results.channel).toMatchObject({ ok: false, fix: 'invite the app: type /invite @dsh-slack in #secret (C0123ABCDEF)' })
  })

  it('refuses an archived channel', async () => {
    const results = await check(base, fakeSlack({ conversationInfo: async () => ({ name: 'old', isMember: true, isPrivate: false, isArchived: true }) }))

    expect(results.channel).toMatchObject({ ok: false, detail: '#old (C0123ABCDEF) is archived' })
  })

  it('explains a channel id Slack does not know', async () => {
    const results = await check(base, fakeSlack({ conversationInfo: async () => Promise.reject(new SlackCallError('conversations.info', 'channel_not_found', '')) }))

    expect(results.channel).toMatchObject({ ok: false, fix: expect.stringContaining('not its name') })
  })

  it('opens a DM for a user id instead of looking up a channel', async () => {
    const results = await check({ ...base, SLACK_CHANNEL: 'U0123ABCDEF' }, fakeSlack())

    expect(results.channel).toMatchObject({ ok: true, detail: 'a DM with U0123ABCDEF opens (D0DM); questions go there' })
  })

  it('fails when no channel is configured, saying what to set', async () => {
    const { SLACK_CHANNEL: _, ...env } = base
    const results = await check(env, fakeSlack())

    expect(results.channel).toMatchObject({ ok: false, detail: 'SLACK_CHANNEL is not set' })
  })

  it('reports missing history scopes on a line of their own: thread replies are off, buttons still work, and the events to add are named', async () => {
    const results = await check(base, fakeSlack({ authTest: async () => ({ team: 'Acme', user: 'dsh-slack', scopes: MANIFEST_BOT_SCOPES.filter((scope) => scope !== 'groups:history') }) }))

    expect(results.scopes).toMatchObject({ ok: true })
    expect(results['thread replies']).toMatchObject({
      ok: false,
      detail: "missing groups:history: replies in a card's thread are not read (buttons and forms work as before)",
      fix: expect.stringContaining('message.channels and message.groups'),
    })
  })

  it('says why plan reviews stay in the thread: the code-channel scopes missing (the rest still passes), or the setting off', async () => {
    const withoutCodeChannels = fakeSlack({ authTest: async () => ({ team: 'Acme', user: 'dsh-slack', scopes: MANIFEST_BOT_SCOPES.filter((scope) => scope !== 'code_channels:manage') }) })
    const missing = await check(base, withoutCodeChannels)
    const off = await check({ ...base, DSH_SLACK_CODE_CHANNELS: 'off' }, withoutCodeChannels)

    expect(missing.scopes).toMatchObject({ ok: true })
    expect(missing['code channels']).toMatchObject({ ok: false, detail: 'missing code_channels:manage: plan reviews are the card and its thread (approving, dismissing and Request changes work as before)', fix: expect.stringContaining('DSH_SLACK_CODE_CHANNELS=off') })
    expect(off['code channels']).toMatchObject({ ok: true, detail: 'turned off (DSH_SLACK_CODE_CHANNELS=off): plan reviews are the card and its thread' })
  })

  it('fails when Slack reports no scopes at all, pointing at a proxy', async () => {
    const results = await check(base, fakeSlack({ authTest: async () => ({ team: 'Acme' }) }))

    expect(results.scopes).toMatchObject({ ok: false, fix: expect.stringContaining('SLACK_API_URL') })
  })

  it('checks the signing secret instead of the socket in HTTP mode', async () => {
    const { SLACK_APP_TOKEN: _, ...env } = base
    const results = await check({ ...env, SLACK_SIGNING_SECRET: '0123456789abcdef0123' }, fakeSlack())

    expect(results['HTTP mode']).toMatchObject({ ok: true })
    expect(results['Socket Mode']).toBeUndefined()
  })

  it('checks the token, scopes and channel even when neither an app token nor a signing secret is set', async () => {
    const { SLACK_APP_TOKEN: _, ...env } = base
    const results = await runDoctorChecks(configFromEnv(env, { checkCombination: false }), fakeSlack(), nothingListens)
    const byName = Object.fromEntries(results.map((result) => [result.name, result]))

    expect(results.map((result) => [result.name, result.ok])).toEqual([['token', true], ['scopes', true], ['thread replies', true], ['code channels', true], ['channel', true], ['HTTP mode', false], ['HTTP API', true]])
    expect(byName['HTTP mode']).toMatchObject({ fix: expect.stringContaining('SLACK_APP_TOKEN') })
  })

  it('fails the HTTP API check on a non-loopback HOST without a key, with the command that fixes it', async () => {
    const results = await runDoctorChecks(configFromEnv({ ...base, HOST: '0.0.0.0' }, { checkCombination: false }), fakeSlack(), nothingListens)

    expect(results.find((result) => result.name === 'HTTP API')).toMatchObject({ ok: false, fix: expect.stringContaining('DSH_SLACK_API_KEY=$(openssl rand -hex 24)') })
  })

  it('says a service listens on the API\'s address only when a dsh-slack service answers there, and that the port is taken when something else does', async () => {
    const serving = await listen((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, slack: 'connected', store: 'sqlite' })))
    const other = await listen((_req, res) => res.writeHead(404).end('not here'))
    const free = await listen(() => undefined)
    await free.close()
    const apiLine = async (port: number) => (await runDoctorChecks(configFromEnv({ ...base, PORT: String(port) }), fakeSlack())).find((result) => result.name === 'HTTP API')
    try {
      expect(await apiLine(serving.port)).toEqual({ ok: true, name: 'HTTP API', detail: `a dsh-slack service listens on 127.0.0.1:${serving.port}, loopback only` })
      expect(await apiLine(free.port)).toEqual({ ok: true, name: 'HTTP API', detail: `nothing listens on 127.0.0.1:${free.port} yet: dsh-slack serve (npm start) will, loopback only` })
      expect(await apiLine(other.port)).toMatchObject({ ok: false, detail: `127.0.0.1:${other.port} is taken by another program (it does not answer as dsh-slack), so dsh-slack serve cannot listen there`, fix: expect.stringContaining('set PORT') })
    } finally {
      await serving.close()
      await other.close()
    }
  })

  it('names the plugin\'s own setting in its advice to turn code channels off, not the service\'s variable', async () => {
    const withoutCodeChannels = fakeSlack({ authTest: async () => ({ team: 'Acme', user: 'dsh-slack', scopes: MANIFEST_BOT_SCOPES.filter((scope) => scope !== 'canvases:write') }) })
    const results = await runDoctorChecks(configFromEnv(base), withoutCodeChannels, { httpApi: false, codeChannelsOffBy: 'codeChannels: off in the plugin config' })
    const line = results.find((result) => result.name === 'code channels')!

    expect(line.fix).toContain('or set codeChannels: off in the plugin config to keep plan reviews in the thread')
    expect(line.fix).not.toContain('DSH_SLACK_CODE_CHANNELS')
  })

  it('prints a passed check on one line and a failed one with its fix indented below', () => {
    expect(formatCheck({ ok: true, name: 'token', detail: 'valid' })).toBe('✓ token: valid')
    expect(formatCheck({ ok: false, name: 'channel', detail: 'missing', fix: 'set it' })).toBe('✗ channel: missing\n    fix: set it')
  })
})
