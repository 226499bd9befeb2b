import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_SANDBOX_PORT, DEFAULT_STATE_PATH, configFromEnv, isLoopbackHost } from '../../src/config/index.js'

const BOT = 'xoxb-test-bot-token'
const APP = 'xapp-test-app-token'
const SIGNING = 'abcdef0123456789abcdef0123456789'
const API_KEY = 'test-api-key-that-is-long-enough'
const ACCESS = 'test-host-access-secret'

/** The `{ name, variable, message }` of the ConfigError `run` throws. */
function configRejection(run: () => unknown): { name: string; variable: string; message: string } {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    const { name, variable, message } = error as ConfigError
    return { name, variable, message }
  }
  throw new Error('expected a ConfigError, but the call returned')
}

describe('configFromEnv: defaults', () => {
  it('runs against the local stand-in on loopback with nothing set', () => {
    expect(configFromEnv({})).toEqual({
      allowedUsers: [],
      allowedUserGroups: [],
      locale: 'en',
      statePath: DEFAULT_STATE_PATH,
      host: '127.0.0.1',
      port: 3000,
      sandboxPort: DEFAULT_SANDBOX_PORT,
      hostUrls: [],
      hostAccessSecrets: [],
      approvals: 1,
      approvers: [],
      apiKeys: [],
      logFormat: 'text',
      codeChannels: 'auto',
    })
  })

  it('puts the local stand-in on DSH_SLACK_SANDBOX_PORT, and refuses one that is not a port', () => {
    expect(configFromEnv({ DSH_SLACK_SANDBOX_PORT: '4200' }).sandboxPort).toBe(4200)
    expect(() => configFromEnv({ DSH_SLACK_SANDBOX_PORT: 'x' })).toThrow('DSH_SLACK_SANDBOX_PORT: "x" is not a port')
  })

  it('treats empty and blank variables as unset, since .env.example copies leave many blank', () => {
    const env = { SLACK_BOT_TOKEN: '', SLACK_APP_TOKEN: ' ', SLACK_CHANNEL: '', PORT: '', DSH_SLACK_LOCALE: '', DSH_SLACK_TIMEOUT: '  ', HOST: '' }

    expect(configFromEnv(env)).toEqual(configFromEnv({}))
  })

  it('ignores variables it does not know', () => {
    expect(configFromEnv({ PATH: '/usr/bin', SLACK_SOMETHING_ELSE: 'x' })).toEqual(configFromEnv({}))
  })

  it('trims surrounding spaces from values', () => {
    expect(configFromEnv({ SLACK_CHANNEL: '  C0123ABCDEF ' }).channel).toBe('C0123ABCDEF')
  })
})

describe('configFromEnv: each variable', () => {
  it.each([
    ['Socket Mode', { SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: APP }, { botToken: BOT, appToken: APP }],
    ['HTTP mode', { SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING }, { botToken: BOT, signingSecret: SIGNING }],
    ['an upper-case hex signing secret', { SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING.toUpperCase() }, { signingSecret: SIGNING.toUpperCase() }],
  ])('reads the tokens of %s', (_what, env, expected) => {
    expect(configFromEnv(env)).toMatchObject(expected)
  })

  it.each([
    ['a public channel', 'C0123ABCDEF'],
    ['a private channel', 'G0123ABCDEF'],
    ['a user (sent as a DM)', 'U0123ABCDEF'],
    ['an Enterprise user', 'W0123ABCDEF'],
  ])('accepts %s as SLACK_CHANNEL', (_what, channel) => {
    expect(configFromEnv({ SLACK_CHANNEL: channel }).channel).toBe(channel)
  })

  it.each([
    ['a channel name', '#general'],
    ['a lower-case id', 'c0123abcdef'],
    ['a user-group id', 'S0123ABCDEF'],
    ['a DM conversation id', 'D0123ABCDEF'],
    ['a bare letter', 'C'],
  ])('rejects %s as SLACK_CHANNEL with an example of a good value', (_what, channel) => {
    expect(configRejection(() => configFromEnv({ SLACK_CHANNEL: channel }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_CHANNEL',
      message: `SLACK_CHANNEL: ${JSON.stringify(channel)} is not a channel or user id (expected e.g. C0123ABCDEF, or U0123ABCDEF for a DM; open the channel's details in Slack to copy its id)`,
    })
  })

  it.each(['https://slack.com/api/', 'http://127.0.0.1:4100/api/'])('accepts %s as SLACK_API_URL', (url) => {
    expect(configFromEnv({ SLACK_API_URL: url }).slackApiUrl).toBe(url)
  })

  it.each([
    ['slack.com/api', 'SLACK_API_URL: "slack.com/api" is not a URL (expected e.g. https://slack.com/api/)'],
    ['ftp://slack.com/api/', 'SLACK_API_URL: "ftp://slack.com/api/" is not an http(s) URL (expected e.g. https://slack.com/api/)'],
  ])('rejects %s as SLACK_API_URL', (url, message) => {
    expect(configRejection(() => configFromEnv({ SLACK_API_URL: url })).message).toBe(message)
  })

  it('reads comma-separated allowed users, ignoring spaces and empty items', () => {
    expect(configFromEnv({ SLACK_ALLOWED_USERS: ' U0123ABCDEF, W0456GHIJKL,,' }).allowedUsers).toEqual(['U0123ABCDEF', 'W0456GHIJKL'])
  })

  it('rejects an allowed user that is not a user id and names it', () => {
    expect(configRejection(() => configFromEnv({ SLACK_ALLOWED_USERS: 'U0123ABCDEF,@alice' }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_ALLOWED_USERS',
      message: 'SLACK_ALLOWED_USERS: "@alice" is not a user id (expected e.g. U0123ABCDEF)',
    })
  })

  it('reads comma-separated allowed user groups', () => {
    expect(configFromEnv({ SLACK_ALLOWED_USERGROUPS: 'S0123ABCDEF,S0456GHIJKL' }).allowedUserGroups).toEqual(['S0123ABCDEF', 'S0456GHIJKL'])
  })

  it('rejects an allowed user group that is a user id', () => {
    expect(configRejection(() => configFromEnv({ SLACK_ALLOWED_USERGROUPS: 'U0123ABCDEF' })).message).toBe(
      'SLACK_ALLOWED_USERGROUPS: "U0123ABCDEF" is not a user-group id (expected e.g. S0123ABCDEF)',
    )
  })

  it.each(['U0123ABCDEF', 'W0123ABCDEF', 'S0123ABCDEF'])('accepts %s as DSH_SLACK_MENTION', (mention) => {
    expect(configFromEnv({ DSH_SLACK_MENTION: mention }).mention).toBe(mention)
  })

  it.each(['@here', 'C0123ABCDEF', 'alice'])('rejects %s as DSH_SLACK_MENTION', (mention) => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_MENTION: mention }))).toMatchObject({
      variable: 'DSH_SLACK_MENTION',
      message: `DSH_SLACK_MENTION: ${JSON.stringify(mention)} is not a user or user-group id (expected e.g. U0123ABCDEF or S0123ABCDEF)`,
    })
  })

  it.each(['en', 'zh-CN'])('accepts %s as DSH_SLACK_LOCALE', (locale) => {
    expect(configFromEnv({ DSH_SLACK_LOCALE: locale }).locale).toBe(locale)
  })

  it('logs human lines unless DSH_SLACK_LOG_FORMAT says json', () => {
    expect(configFromEnv({}).logFormat).toBe('text')
    expect(configFromEnv({ DSH_SLACK_LOG_FORMAT: 'json' }).logFormat).toBe('json')
    expect(configFromEnv({ DSH_SLACK_LOG_FORMAT: 'text' }).logFormat).toBe('text')
  })

  it('puts plan reviews in code channels when Slack allows (auto) unless DSH_SLACK_CODE_CHANNELS=off, and refuses anything else', () => {
    expect(configFromEnv({}).codeChannels).toBe('auto')
    expect(configFromEnv({ DSH_SLACK_CODE_CHANNELS: 'off' }).codeChannels).toBe('off')
    expect(() => configFromEnv({ DSH_SLACK_CODE_CHANNELS: 'on' })).toThrow(/DSH_SLACK_CODE_CHANNELS.*expected auto/)
  })

  it.each(['JSON', 'jsonl', 'pretty'])('rejects %s as DSH_SLACK_LOG_FORMAT, naming both formats', (format) => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_LOG_FORMAT: format }))).toMatchObject({
      variable: 'DSH_SLACK_LOG_FORMAT',
      message: `DSH_SLACK_LOG_FORMAT: ${JSON.stringify(format)} is not a log format (expected text, the default, or json for one JSON object per line)`,
    })
  })

  it.each(['fr', 'zh', 'EN'])('rejects %s as DSH_SLACK_LOCALE', (locale) => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_LOCALE: locale })).message).toBe(
      `DSH_SLACK_LOCALE: ${JSON.stringify(locale)} is not a supported locale (expected en or zh-CN)`,
    )
  })

  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
  ])('reads DSH_SLACK_TIMEOUT=%s as %i ms', (text, ms) => {
    expect(configFromEnv({ DSH_SLACK_TIMEOUT: text }).defaultTimeoutMs).toBe(ms)
  })

  it.each(['soon', '30x', '-5m', '0s', '30 m', 'm'])('rejects %s as DSH_SLACK_TIMEOUT', (text) => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_TIMEOUT: text }))).toEqual({
      name: 'ConfigError',
      variable: 'DSH_SLACK_TIMEOUT',
      message: `DSH_SLACK_TIMEOUT: ${JSON.stringify(text)} is not a duration (expected e.g. 90s, 30m or 2h)`,
    })
  })

  it('rejects a DSH_SLACK_TIMEOUT over 30 days, because such a date cannot be shown and nobody answers that late', () => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_TIMEOUT: '31d' }))).toEqual({
      name: 'ConfigError',
      variable: 'DSH_SLACK_TIMEOUT',
      message: 'DSH_SLACK_TIMEOUT: "31d" must be at most 30 days (2592000000 ms)',
    })
  })

  it('accepts a DSH_SLACK_TIMEOUT of exactly 30 days', () => {
    expect(configFromEnv({ DSH_SLACK_TIMEOUT: '30d' }).defaultTimeoutMs).toBe(30 * 86_400_000)
  })

  it('reads DSH_SLACK_ALLOWED_HOSTS as a list of names', () => {
    expect(configFromEnv({ DSH_SLACK_ALLOWED_HOSTS: 'dsh.example.com, dsh.example.com:8443,.corp.example,[fd00::1]:3000' }).allowedHosts).toEqual([
      'dsh.example.com',
      'dsh.example.com:8443',
      '.corp.example',
      '[fd00::1]:3000',
    ])
  })

  it('accepts * in DSH_SLACK_ALLOWED_HOSTS to answer any Host when an API key guards the API', () => {
    expect(configFromEnv({ DSH_SLACK_ALLOWED_HOSTS: '*', DSH_SLACK_API_KEY: 'k'.repeat(24) }).allowedHosts).toEqual(['*'])
    expect(configFromEnv({ DSH_SLACK_ALLOWED_HOSTS: '*', DSH_SLACK_API_KEYS: `ci:${'k'.repeat(24)}` }).allowedHosts).toEqual(['*'])
  })

  it('refuses * in DSH_SLACK_ALLOWED_HOSTS without an API key, since any page could then reach the API by DNS rebinding', () => {
    const rejection = configRejection(() => configFromEnv({ DSH_SLACK_ALLOWED_HOSTS: '*' }))

    expect(rejection.variable).toBe('DSH_SLACK_ALLOWED_HOSTS')
    expect(rejection.message).toMatch(/DNS rebinding/)
  })

  it('reads DSH_SLACK_API_KEYS as named keys and refuses a short secret or a repeated name without showing the secret', () => {
    expect(configFromEnv({ DSH_SLACK_API_KEYS: `ci:${'a'.repeat(20)}, laptop:${'b'.repeat(20)}` }).apiKeys).toEqual([
      { name: 'ci', secret: 'a'.repeat(20) },
      { name: 'laptop', secret: 'b'.repeat(20) },
    ])
    const short = configRejection(() => configFromEnv({ DSH_SLACK_API_KEYS: 'ci:hunter2' }))
    expect(short.message).toMatch(/too short/)
    expect(short.message).not.toContain('hunter2')
    expect(configRejection(() => configFromEnv({ DSH_SLACK_API_KEYS: `ci:${'a'.repeat(20)},ci:${'b'.repeat(20)}` })).message).toMatch(/twice/)
    expect(configRejection(() => configFromEnv({ DSH_SLACK_API_KEYS: 'a'.repeat(20) })).message).toMatch(/not name:secret/)
  })

  it('refuses one secret under two names in DSH_SLACK_API_KEYS, or shared with DSH_SLACK_API_KEY, naming the keys and not the secret', () => {
    const secret = 's'.repeat(24)

    const twice = configRejection(() => configFromEnv({ DSH_SLACK_API_KEYS: `ci:${secret},laptop:${secret}` }))
    const shared = configRejection(() => configFromEnv({ DSH_SLACK_API_KEY: secret, DSH_SLACK_API_KEYS: `ci:${secret}` }))

    expect(twice).toMatchObject({ variable: 'DSH_SLACK_API_KEYS', message: expect.stringMatching(/gives key "laptop" the secret of key "ci": each secret belongs to one key/) })
    expect(shared).toMatchObject({ variable: 'DSH_SLACK_API_KEYS', message: expect.stringMatching(/gives key "ci" the secret of DSH_SLACK_API_KEY/) })
    expect(twice.message + shared.message).not.toContain(secret)
  })

  it.each(['https://dsh.example.com', 'dsh.example.com/path', 'user@dsh.example.com', 'dsh example'])('rejects %s in DSH_SLACK_ALLOWED_HOSTS', (value) => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_ALLOWED_HOSTS: value })).variable).toBe('DSH_SLACK_ALLOWED_HOSTS')
  })

  it('reads DSH_SLACK_STATE as a SQLite file in a folder that exists, :memory:, or a postgres URL', () => {
    const folder = mkdtempSync(join(tmpdir(), 'dsh-slack-config-'))
    expect(configFromEnv({ DSH_SLACK_STATE: join(folder, 'state.sqlite') }).statePath).toBe(join(folder, 'state.sqlite'))
    expect(configFromEnv({ DSH_SLACK_STATE: ':memory:' }).statePath).toBe(':memory:')
    expect(configFromEnv({ DSH_SLACK_STATE: 'postgres://dsh:pw@db:5432/dsh_slack' }).statePath).toBe('postgres://dsh:pw@db:5432/dsh_slack')
    expect(configFromEnv({ DSH_SLACK_STATE: 'postgresql://db/dsh_slack' }).statePath).toBe('postgresql://db/dsh_slack')
    // The default folder is created at start, so a file in it needs no folder yet.
    expect(configFromEnv({ DSH_SLACK_STATE: '.dsh-slack/other.sqlite' }).statePath).toBe('.dsh-slack/other.sqlite')
    rmSync(folder, { recursive: true })
  })

  it.each(['postgress://postgres@127.0.0.1:5432/dsh', 'mysql://root@db/dsh', 'redis://cache'])('refuses DSH_SLACK_STATE=%s, naming the accepted forms', (value) => {
    const error = configRejection(() => configFromEnv({ DSH_SLACK_STATE: value }))
    expect(error.variable).toBe('DSH_SLACK_STATE')
    expect(error.message).toContain('expected a postgres:// or postgresql:// URL, :memory:, or a SQLite file in a folder that exists')
  })

  it('refuses a DSH_SLACK_STATE file in a folder that does not exist, instead of creating it', () => {
    const missing = join(tmpdir(), `dsh-slack-missing-${process.pid}`, 'dir', 'state.sqlite')
    expect(() => configFromEnv({ DSH_SLACK_STATE: missing })).toThrow(/DSH_SLACK_STATE: the folder ".*dir" does not exist; create it first/)
    expect(existsSync(dirname(missing))).toBe(false)
  })

  it('never shows the password of a malformed state URL', () => {
    expect(() => configFromEnv({ DSH_SLACK_STATE: 'postgress://dsh:hunter2@db/dsh' })).toThrow(/postgress:\/\/\*\*\*@db\/dsh/)
    expect(() => configFromEnv({ DSH_SLACK_STATE: 'postgress://dsh:hunter2@db/dsh' })).not.toThrow(/hunter2/)
  })

  it.each([
    ['0', 0],
    ['8080', 8080],
    ['65535', 65535],
  ])('reads PORT=%s', (text, port) => {
    expect(configFromEnv({ PORT: text }).port).toBe(port)
  })

  it.each(['65536', 'http', '-1', '80.5'])('rejects PORT=%s', (text) => {
    expect(configRejection(() => configFromEnv({ PORT: text })).message).toBe(
      `PORT: ${JSON.stringify(text)} is not a port (expected a number from 0 to 65535, e.g. 3000)`,
    )
  })

  it('reads HOST', () => {
    expect(configFromEnv({ HOST: 'localhost' }).host).toBe('localhost')
  })

  it('reads DSH_SLACK_API_KEY of at least 16 characters', () => {
    expect(configFromEnv({ DSH_SLACK_API_KEY: API_KEY }).apiKey).toBe(API_KEY)
  })

  it('rejects a short DSH_SLACK_API_KEY', () => {
    expect(configRejection(() => configFromEnv({ DSH_SLACK_API_KEY: 'short' })).message).toBe(
      'DSH_SLACK_API_KEY: is too short; use at least 16 random characters (e.g. from `openssl rand -hex 24`)',
    )
  })

  it('reads one or more harness hosts from DSH_HOST_URL', () => {
    expect(configFromEnv({ DSH_HOST_URL: 'http://127.0.0.1:4000, https://host.example:4443/' }).hostUrls).toEqual([
      'http://127.0.0.1:4000',
      'https://host.example:4443/',
    ])
  })

  it.each([
    ['localhost:4000', 'DSH_HOST_URL: "localhost:4000" is not an http(s) URL (expected e.g. http://127.0.0.1:4000)'],
    ['127.0.0.1:4000', 'DSH_HOST_URL: "127.0.0.1:4000" is not a URL (expected e.g. http://127.0.0.1:4000)'],
    ['not a url', 'DSH_HOST_URL: "not a url" is not a URL (expected e.g. http://127.0.0.1:4000)'],
  ])('rejects DSH_HOST_URL=%s', (url, message) => {
    expect(configRejection(() => configFromEnv({ DSH_HOST_URL: url })).message).toBe(message)
  })

  it('refuses plain http to a harness host on another machine, which would send its secret and cookie in clear, unless told to accept it', () => {
    expect(configRejection(() => configFromEnv({ DSH_HOST_URL: 'http://127.0.0.1:4000,http://build-box.internal:4000' })).message).toMatch(
      /^DSH_HOST_URL: "http:\/\/build-box\.internal:4000" is plain http to another machine: .*unencrypted\. Use https:\/\/, or set DSH_HOST_ALLOW_PLAIN_HTTP=true/,
    )
    expect(configFromEnv({ DSH_HOST_URL: 'http://build-box.internal:4000', DSH_HOST_ALLOW_PLAIN_HTTP: 'true' }).hostUrls).toEqual(['http://build-box.internal:4000'])
    expect(configFromEnv({ DSH_HOST_URL: 'http://localhost:4000,http://[::1]:4001,https://build-box.internal:4443' }).hostUrls).toHaveLength(3)
    expect(configRejection(() => configFromEnv({ DSH_HOST_ALLOW_PLAIN_HTTP: 'yes' })).message).toBe('DSH_HOST_ALLOW_PLAIN_HTTP: "yes" is not true or false')
  })

  it('reads DSH_HOST_ACCESS_SECRET for one host whole, commas included, and rejects a short one', () => {
    expect(configFromEnv({ DSH_HOST_URL: 'http://127.0.0.1:4000', DSH_HOST_ACCESS_SECRET: ACCESS }).hostAccessSecrets).toEqual([ACCESS])
    expect(configFromEnv({ DSH_HOST_URL: 'http://127.0.0.1:4000', DSH_HOST_ACCESS_SECRET: 'has,a,comma,in,it,0123' }).hostAccessSecrets).toEqual(['has,a,comma,in,it,0123'])
    expect(configRejection(() => configFromEnv({ DSH_HOST_ACCESS_SECRET: 'short' })).message).toBe(
      'DSH_HOST_ACCESS_SECRET: is too short; the harness host requires at least 16 characters',
    )
  })

  it('gives each of several hosts the secret at its position, and none for an empty entry', () => {
    const config = configFromEnv({
      DSH_HOST_URL: 'http://127.0.0.1:4000,http://127.0.0.1:4001,http://127.0.0.1:4002',
      DSH_HOST_ACCESS_SECRET: 'first-host-secret-0123,,third-host-secret-89ab',
    })

    expect(config.hostAccessSecrets).toEqual(['first-host-secret-0123', undefined, 'third-host-secret-89ab'])
  })

  it('refuses a secret list that does not match the hosts, or a short entry, naming its position and never a secret', () => {
    const hosts = 'http://127.0.0.1:4000,http://127.0.0.1:4001'

    const count = configRejection(() => configFromEnv({ DSH_HOST_URL: hosts, DSH_HOST_ACCESS_SECRET: 'one-secret-for-both-hosts' }))
    const short = configRejection(() => configFromEnv({ DSH_HOST_URL: hosts, DSH_HOST_ACCESS_SECRET: 'first-host-secret-0123,tiny' }))

    expect(count).toMatchObject({ name: 'ConfigError', variable: 'DSH_HOST_ACCESS_SECRET' })
    expect(count.message).toMatch(/has 1 entry for 2 hosts in DSH_HOST_URL/)
    expect(count.message).not.toContain('one-secret')
    expect(short.message).toBe('DSH_HOST_ACCESS_SECRET: entry 2 (for host 2 of DSH_HOST_URL) is too short; the harness host requires at least 16 characters')
    expect(short.message).not.toContain('tiny')
  })
})

describe('configFromEnv: tokens by prefix', () => {
  it.each([
    ['a user token', 'xoxp-test-user-token'],
    ['an app token', APP],
  ])('rejects %s as SLACK_BOT_TOKEN', (_what, token) => {
    expect(configRejection(() => configFromEnv({ SLACK_BOT_TOKEN: token, SLACK_APP_TOKEN: APP }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_BOT_TOKEN',
      message: 'SLACK_BOT_TOKEN: must be a bot token starting with "xoxb-" (OAuth & Permissions → Bot User OAuth Token)',
    })
  })

  it.each([['a bot token', BOT], ['anything else', 'connections-write']])('rejects %s as SLACK_APP_TOKEN', (_what, token) => {
    expect(configRejection(() => configFromEnv({ SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: token }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_APP_TOKEN',
      message: 'SLACK_APP_TOKEN: must be an app-level token starting with "xapp-" (Basic Information → App-Level Tokens, scope connections:write)',
    })
  })

  it.each([['too short', 'abc123'], ['not hex', 'z'.repeat(32)]])('rejects a signing secret that is %s', (_what, secret) => {
    expect(configRejection(() => configFromEnv({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: secret }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_SIGNING_SECRET',
      message: 'SLACK_SIGNING_SECRET: must be the hex signing secret from Basic Information → App Credentials',
    })
  })
})

describe('configFromEnv: rules across variables', () => {
  it('requires a signing secret in HTTP mode (a bot token but no app token)', () => {
    expect(configRejection(() => configFromEnv({ SLACK_BOT_TOKEN: BOT }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_SIGNING_SECRET',
      message:
        'SLACK_SIGNING_SECRET: is required in HTTP mode (no SLACK_APP_TOKEN set): copy it from Basic Information → App Credentials, or set SLACK_APP_TOKEN for Socket Mode',
    })
  })

  it('needs no signing secret in Socket Mode', () => {
    expect(configFromEnv({ SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: APP }).signingSecret).toBeUndefined()
  })

  it('refuses an app token without a bot token', () => {
    expect(configRejection(() => configFromEnv({ SLACK_APP_TOKEN: APP }))).toEqual({
      name: 'ConfigError',
      variable: 'SLACK_BOT_TOKEN',
      message: 'SLACK_BOT_TOKEN: is required with SLACK_APP_TOKEN (OAuth & Permissions → Bot User OAuth Token, starts with xoxb-)',
    })
  })

  it.each(['0.0.0.0', '192.168.1.20', '::', 'dsh.internal'])('requires DSH_SLACK_API_KEY when HOST is %s, and says how to set one', (host) => {
    expect(configRejection(() => configFromEnv({ HOST: host }))).toEqual({
      name: 'ConfigError',
      variable: 'DSH_SLACK_API_KEY',
      message:
        `DSH_SLACK_API_KEY: is required when HOST (${host}) is not a loopback address: anyone on the network could ask and answer otherwise. ` +
        `Set a key and send it as "Authorization: Bearer <key>", e.g. DSH_SLACK_API_KEY=$(openssl rand -hex 24) HOST=${host} npm start; or leave HOST unset to listen on 127.0.0.1 only`,
    })
  })

  it('listens beyond loopback once an API key is set', () => {
    expect(configFromEnv({ HOST: '0.0.0.0', DSH_SLACK_API_KEY: API_KEY })).toMatchObject({ host: '0.0.0.0', apiKey: API_KEY })
  })

  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])('needs no API key on loopback %s', (host) => {
    expect(configFromEnv({ HOST: host }).host).toBe(host)
  })

  it('reports a malformed value before a missing companion variable', () => {
    expect(configRejection(() => configFromEnv({ SLACK_APP_TOKEN: 'nope' })).variable).toBe('SLACK_APP_TOKEN')
  })
})

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['128.0.0.1', false],
    ['localhost.example', false],
    ['', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback)
  })
})

describe('configFromEnv: secrets never appear in errors', () => {
  const secrets = {
    SLACK_BOT_TOKEN: 'xoxb-secret-bot-value-1',
    SLACK_APP_TOKEN: 'xapp-secret-app-value-2',
    SLACK_SIGNING_SECRET: 'secret-signing-value-3',
    DSH_SLACK_API_KEY: 'secret4',
    DSH_HOST_ACCESS_SECRET: 'secret5',
  }

  /** The message configFromEnv throws for the env, or nothing. */
  function messages(env: Record<string, string>): string[] {
    try {
      configFromEnv(env)
      return []
    } catch (error) {
      return [(error as Error).message]
    }
  }

  it.each([
    ['a user token as bot token', { SLACK_BOT_TOKEN: 'xoxp-secret-user-value', SLACK_APP_TOKEN: 'xapp-ok-value' }, 'xoxp-secret-user-value'],
    ['a bot token as app token', { SLACK_BOT_TOKEN: 'xoxb-ok-value', SLACK_APP_TOKEN: 'xoxb-secret-bot-value' }, 'xoxb-secret-bot-value'],
    ['a malformed signing secret', { SLACK_BOT_TOKEN: 'xoxb-ok-value', SLACK_SIGNING_SECRET: secrets.SLACK_SIGNING_SECRET }, secrets.SLACK_SIGNING_SECRET],
    ['a short API key', { DSH_SLACK_API_KEY: secrets.DSH_SLACK_API_KEY }, secrets.DSH_SLACK_API_KEY],
    ['a short host access secret', { DSH_HOST_ACCESS_SECRET: secrets.DSH_HOST_ACCESS_SECRET }, secrets.DSH_HOST_ACCESS_SECRET],
    ['a token pasted into SLACK_CHANNEL', { SLACK_CHANNEL: 'xoxb-secret-in-channel' }, 'xoxb-secret-in-channel'],
    ['an app token pasted into DSH_SLACK_MENTION', { DSH_SLACK_MENTION: 'xapp-secret-in-mention' }, 'xapp-secret-in-mention'],
    ['a password in a bad DSH_HOST_URL', { DSH_HOST_URL: 'ftp://admin:hunter2secret@host.example/' }, 'hunter2secret'],
    ['a password in a bad SLACK_API_URL', { SLACK_API_URL: 'ws://user:pw-secret-x@slack.example/api/' }, 'pw-secret-x'],
    ['a password holding a slash in a bad DSH_HOST_URL', { DSH_HOST_URL: 'ftp://admin:hun/ter2@host.example/' }, 'ter2'],
    ['a password holding an @ in a bad SLACK_API_URL', { SLACK_API_URL: 'ws://user:p@ss-secret@slack.example/api/' }, 'ss-secret'],
  ])('keeps %s out of the message', (_what, env, secret) => {
    const [message] = messages(env)

    expect(message).toBeDefined()
    expect(message).not.toContain(secret)
  })

  it('keeps every secret out of every cross-variable message', () => {
    const envs: Record<string, string>[] = [
      { SLACK_APP_TOKEN: secrets.SLACK_APP_TOKEN },
      { SLACK_BOT_TOKEN: secrets.SLACK_BOT_TOKEN },
      { HOST: '0.0.0.0', SLACK_BOT_TOKEN: secrets.SLACK_BOT_TOKEN, SLACK_APP_TOKEN: secrets.SLACK_APP_TOKEN, DSH_HOST_ACCESS_SECRET: 'long-enough-secret-value-6' },
    ]

    const all = envs.flatMap(messages)

    expect(all).toHaveLength(3)
    for (const message of all) for (const secret of [...Object.values(secrets), 'long-enough-secret-value-6']) expect(message).not.toContain(secret)
  })

  it('says what is wrong with a token-looking value without quoting it', () => {
    expect(messages({ SLACK_CHANNEL: 'xoxb-secret-in-channel' })).toEqual([
      "SLACK_CHANNEL: (a value that looks like a Slack token, not shown) is not a channel or user id (expected e.g. C0123ABCDEF, or U0123ABCDEF for a DM; open the channel's details in Slack to copy its id)",
    ])
  })

  it('masks the credentials of a URL it quotes', () => {
    expect(messages({ DSH_HOST_URL: 'ftp://admin:pw@host.example/' })).toEqual(['DSH_HOST_URL: "ftp://***@host.example/" is not an http(s) URL (expected e.g. http://127.0.0.1:4000)'])
  })

  it('keeps every message on one line', () => {
    expect(messages({ SLACK_CHANNEL: 'C\nnext line' })[0]).not.toContain('\n')
  })
})

describe('configFromEnv: team approvals', () => {
  it('reads the default quorum, approvers, reminder and escalation', () => {
    const config = configFromEnv({ DSH_SLACK_APPROVALS: '2', DSH_SLACK_APPROVERS: 'U0ALICE, S0LEADS', DSH_SLACK_REMIND_AFTER: '15m', DSH_SLACK_ESCALATE_TO: 'U0BOB', DSH_SLACK_ESCALATE_AFTER: '1h' })

    expect(config).toMatchObject({ approvals: 2, approvers: ['U0ALICE', 'S0LEADS'], remindAfterMs: 900_000, escalateTo: 'U0BOB', escalateAfterMs: 3_600_000 })
  })

  it('rejects 11 approvals and an escalation target without a delay, naming the variable', () => {
    expect(() => configFromEnv({ DSH_SLACK_APPROVALS: '11' })).toThrow(/DSH_SLACK_APPROVALS/)
    expect(() => configFromEnv({ DSH_SLACK_ESCALATE_TO: 'U0BOB' })).toThrow(/DSH_SLACK_ESCALATE_AFTER/)
  })
})
