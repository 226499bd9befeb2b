import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { DoctorSlack } from '../../src/cli/doctor/doctor-port.js'
import { MANIFEST_BOT_SCOPES } from '../../src/cli/doctor/manifest-scopes.js'
import { doctorCommand } from '../../src/cli/doctor.js'
import { memoryIo } from '../support/memory-io.js'

const dirs: string[] = []

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A headless profile folder holding `patch` as its cordis.patch.yml. */
function headlessProfile(patch: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'dsh-home-')), 'profiles', 'headless')
  dirs.push(dirname(dirname(dir)))
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'cordis.patch.yml'), patch)
  return dir
}

const profilePatch = (config: string) => `- id: dsh-slack
  config:
    botToken: xoxb-profile
    appToken: xapp-profile
    channel: C0PROFILE01
${config}- insert:
    - id: tool-ask-user
      name: '@deepseek-ai/dsh-tool-ask-user'
`

/** `dsh-slack doctor --harness <profile>` in-process, with Slack answering as a healthy workspace; returns what it printed, the exit code, and the calls it made. */
async function doctorHarness(profile: string, env: Record<string, string> = {}) {
  const calls: string[] = []
  const slack: DoctorSlack = {
    authTest: async () => (calls.push('auth.test'), { team: 'Acme', user: 'dsh-slack', scopes: [...MANIFEST_BOT_SCOPES] }),
    conversationInfo: async (channel) => (calls.push(`conversations.info ${channel}`), { name: 'agents', isMember: true, isPrivate: false, isArchived: false }),
    openDm: async () => 'D0DM',
    openSocketConnection: async () => void calls.push('apps.connections.open'),
  }
  const doctor = memoryIo(env)
  const code = await doctorCommand(['--harness', profile], doctor.io, () => slack)
  const stdout = doctor.output()
  return { stdout, code, calls, names: stdout.split('\n').filter((line) => /^[✓✗!]/.test(line)).map((line) => line.slice(2).split(':')[0]) }
}

describe('doctor --harness', () => {
  it('checks Slack with the profile’s settings only, not the service’s environment, and prints no HTTP API line', async () => {
    const { names, calls } = await doctorHarness(headlessProfile(profilePatch('')), { SLACK_BOT_TOKEN: 'xoxb-env', SLACK_CHANNEL: 'C0ENVIRON01', HOST: '0.0.0.0' })

    expect(names).toEqual(['harness patch', 'plugin config', 'Node', 'token', 'scopes', 'thread replies', 'code channels', 'channel', 'Socket Mode'])
    expect(calls).toEqual(['auth.test', 'conversations.info C0PROFILE01', 'apps.connections.open'])
  })

  it('with an unknown setting next to the tokens, names that setting and reports no missing SLACK_BOT_TOKEN', async () => {
    const { stdout, names, code, calls } = await doctorHarness(headlessProfile(profilePatch('    colour: blue\n')))

    expect(names).toEqual(['harness patch', 'plugin config', 'Node'])
    expect(stdout).toContain('✗ plugin config: dsh-slack plugin config colour: is not a dsh-slack plugin setting')
    expect(stdout).not.toContain('SLACK_BOT_TOKEN')
    expect(stdout).toContain('The Slack checks run once the plugin config is fixed.')
    expect(calls).toEqual([])
    expect(code).toBe(1)
  })

  it('tells what a wrong setting costs a run (NO_PROVIDER, tools refused), not that nothing is lost', async () => {
    const { stdout } = await doctorHarness(headlessProfile(profilePatch('    colour: blue\n')))

    expect(stdout).toMatch(/fix: fix that setting .*questions get NO_PROVIDER and tool approvals are refused/)
  })

  it('says code channels are off when the plugin’s own setting turns them off, naming that setting, though the app has the scopes', async () => {
    const { stdout, code } = await doctorHarness(headlessProfile(profilePatch('    codeChannels: "off"\n')), { DSH_SLACK_CODE_CHANNELS: 'auto' })

    expect(stdout).toContain('✓ code channels: turned off (codeChannels: off in the plugin config): plan reviews are the card and its thread\n')
    expect(code).toBe(0)
  })

  it('says code channels are off when DSH_SLACK_CODE_CHANNELS=off sets an entry without config', async () => {
    const bare = `- id: dsh-slack\n- insert:\n    - id: tool-ask-user\n      name: '@deepseek-ai/dsh-tool-ask-user'\n`
    const { stdout } = await doctorHarness(headlessProfile(bare), { SLACK_BOT_TOKEN: 'xoxb-env', SLACK_APP_TOKEN: 'xapp-env', SLACK_CHANNEL: 'C0ENVIRON01', DSH_SLACK_CODE_CHANNELS: 'off' })

    expect(stdout).toContain('✓ code channels: turned off (DSH_SLACK_CODE_CHANNELS=off): plan reviews are the card and its thread\n')
  })

  it('keeps the code channels line of granted scopes when the plugin leaves code channels on', async () => {
    const { stdout } = await doctorHarness(headlessProfile(profilePatch('')), { DSH_SLACK_CODE_CHANNELS: 'off' })

    expect(stdout).toContain('✓ code channels: code_channels:manage and canvases:write are granted')
  })
})
