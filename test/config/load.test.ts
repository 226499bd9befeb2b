import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/index.js'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-slack-load-'))
})

afterEach(async () => {
  vi.restoreAllMocks()
  await rm(dir, { recursive: true, force: true })
})

async function envFile(text: string): Promise<string> {
  const path = join(dir, '.env')
  await writeFile(path, text)
  return path
}

describe('loadConfig', () => {
  it('reads variables from the .env file', async () => {
    const path = await envFile('SLACK_CHANNEL=C0123ABCDEF\nDSH_SLACK_TIMEOUT=30m\n')

    expect(loadConfig({ envFile: path, env: {} })).toMatchObject({ channel: 'C0123ABCDEF', defaultTimeoutMs: 1_800_000 })
  })

  it('never overrides a variable already in the environment', async () => {
    const path = await envFile('SLACK_CHANNEL=C0123ABCDEF\nPORT=4000\n')

    expect(loadConfig({ envFile: path, env: { SLACK_CHANNEL: 'G0456GHIJKL' } })).toMatchObject({ channel: 'G0456GHIJKL', port: 4000 })
  })

  it('lets an empty environment variable win over .env, so SLACK_BOT_TOKEN= forces the local stand-in', async () => {
    const path = await envFile('SLACK_BOT_TOKEN=xoxb-from-env-file\nSLACK_APP_TOKEN=xapp-from-env-file\n')

    const config = loadConfig({ envFile: path, env: { SLACK_BOT_TOKEN: '', SLACK_APP_TOKEN: '' } })

    expect(config.botToken).toBeUndefined()
  })

  it('is fine without a .env file', () => {
    expect(loadConfig({ envFile: join(dir, 'missing.env'), env: { PORT: '3100' } }).port).toBe(3100)
  })

  it('prints nothing while loading', async () => {
    const path = await envFile('PORT=4000\n')
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})

    loadConfig({ envFile: path, env: {} })

    expect(log).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
  })

  it('throws a ConfigError for a bad value that came from .env', async () => {
    const path = await envFile('DSH_SLACK_LOCALE=fr\n')

    expect(() => loadConfig({ envFile: path, env: {} })).toThrow(ConfigError)
  })

  it('throws a ConfigError naming the file when it cannot be read', () => {
    expect(() => loadConfig({ envFile: dir, env: {} })).toThrow(new ConfigError(dir, 'could not be read (EISDIR)'))
  })

  it('fills the environment it is given, not the process’s', async () => {
    const path = await envFile('DSH_SLACK_TEST_ONLY=yes\n')
    const env: NodeJS.ProcessEnv = {}

    loadConfig({ envFile: path, env })

    expect(env.DSH_SLACK_TEST_ONLY).toBe('yes')
    expect(process.env.DSH_SLACK_TEST_ONLY).toBeUndefined()
  })
})
