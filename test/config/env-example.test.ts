import { readFile } from 'node:fs/promises'
import dotenv from 'dotenv'
import { describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/config/index.js'

// ARCHITECTURE.md's fixed configuration table.
const VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_CHANNEL',
  'SLACK_API_URL',
  'SLACK_ALLOWED_USERS',
  'SLACK_ALLOWED_USERGROUPS',
  'DSH_SLACK_MENTION',
  'DSH_SLACK_LOCALE',
  'DSH_SLACK_TIMEOUT',
  'DSH_SLACK_STATE',
  'HOST',
  'PORT',
  // Not in ARCHITECTURE.md's table: the local stand-in's port (issue 13).
  'DSH_SLACK_SANDBOX_PORT',
  'DSH_SLACK_API_KEY',
  'DSH_SLACK_ALLOWED_HOSTS',
  'DSH_HOST_URL',
  'DSH_HOST_ACCESS_SECRET',
  // Not in ARCHITECTURE.md's table: opting in to plain http to a remote host (issue 12).
  'DSH_HOST_ALLOW_PLAIN_HTTP',
  'DSH_SLACK_LOG_FORMAT',
  'DSH_SLACK_APPROVALS',
  'DSH_SLACK_APPROVERS',
  'DSH_SLACK_REMIND_AFTER',
  'DSH_SLACK_ESCALATE_TO',
  'DSH_SLACK_ESCALATE_AFTER',
  'DSH_SLACK_POLICY',
  'DSH_SLACK_API_KEYS',
]

const text = await readFile(new URL('../../.env.example', import.meta.url), 'utf8')
const parsed = dotenv.parse(text)

describe('.env.example', () => {
  it('lists every configuration variable, and no other', () => {
    expect(Object.keys(parsed).sort()).toEqual([...VARIABLES].sort())
  })

  it('puts a one-line comment above every variable', () => {
    const lines = text.split('\n')

    for (const variable of VARIABLES) {
      const index = lines.findIndex((line) => line.startsWith(`${variable}=`))
      expect(lines[index - 1], variable).toMatch(/^# \S/)
    }
  })

  it('holds nothing that looks like a real token', () => {
    expect(text).not.toMatch(/xox[a-z]-\d|xapp-\d/)
  })

  it('is a valid configuration as it stands: the local stand-in on loopback', () => {
    expect(configFromEnv(parsed)).toMatchObject({ host: '127.0.0.1', port: 3000, locale: 'en' })
    expect(configFromEnv(parsed).botToken).toBeUndefined()
  })
})
