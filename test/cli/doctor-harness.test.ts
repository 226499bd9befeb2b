import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkHarnessProfile } from '../../src/cli/doctor/harness-checks.js'

const dirs: string[] = []

/** A harness profile folder named `name` holding `patch` as its cordis.patch.yml. */
function profile(name: string, patch: string): string {
  const home = mkdtempSync(join(tmpdir(), 'dsh-home-'))
  dirs.push(home)
  const dir = join(home, 'profiles', name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'cordis.patch.yml'), patch)
  return dir
}

const byName = (path: string, env: NodeJS.ProcessEnv = {}) => Object.fromEntries(checkHarnessProfile(path, env).results.map((result) => [result.name, result]))

const GOOD = `- id: dsh-slack
  config:
    botToken: xoxb-1
    appToken: xapp-1
    channel: C0123ABCDEF
- insert:
    - id: tool-ask-user
      name: '@deepseek-ai/dsh-tool-ask-user'
`

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('doctor --harness', () => {
  it('refuses the map form the harness refuses, saying what it wants instead', () => {
    const results = byName(profile('headless', 'dsh-slack/cordis:\n  botToken: xoxb-1\n'))

    expect(results['harness patch']).toMatchObject({ ok: false, fix: expect.stringContaining('top-level YAML list') })
  })

  it('says where a patch file stops being YAML, with the line, so it can be fixed', () => {
    const results = byName(profile('headless', '- id: dsh-slack\n  config: {\n    botToken: xoxb-1\n'))

    expect(results['harness patch']).toMatchObject({ ok: false, detail: expect.stringMatching(/^cannot read .*cordis\.patch\.yml: .* at line 4, column 1$/) })
  })

  it('reads the dsh-slack entry\'s config from the profile and hands its Slack settings to the Slack checks', () => {
    const findings = checkHarnessProfile(profile('headless', GOOD), {})

    expect(findings.results.find((result) => result.name === 'plugin config')).toMatchObject({ ok: true, detail: expect.stringContaining('connects to Slack itself') })
    expect(findings.results.find((result) => result.name === 'ask tool')).toBeUndefined()
    expect(findings.slack).toEqual({ botToken: 'xoxb-1', appToken: 'xapp-1', channel: 'C0123ABCDEF' })
  })

  it('names a wrong setting the way the plugin would at start', () => {
    const results = byName(profile('headless', GOOD.replace('C0123ABCDEF', '"#general"')))

    expect(results['plugin config']).toMatchObject({ ok: false, detail: expect.stringMatching(/^dsh-slack plugin config channel: /) })
  })

  it('takes the environment when the profile has no dsh-slack config (a bundle install), and says so', () => {
    const results = byName(profile('headless', "- insert:\n    - id: tool-ask-user\n      name: '@deepseek-ai/dsh-tool-ask-user'\n"), { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' })

    expect(results['plugin config']).toMatchObject({ ok: true, detail: expect.stringContaining('the environment') })
  })

  it('tells a headless profile without the ask tool how to insert it', () => {
    const results = byName(profile('headless', GOOD.split('- insert:')[0]!))

    expect(results['ask tool']).toMatchObject({ ok: false, fix: expect.stringContaining('@deepseek-ai/dsh-tool-ask-user') })
  })

  it('leaves Slack to the service when the plugin asks through one', () => {
    const findings = checkHarnessProfile(profile('web', '- id: dsh-slack\n  config:\n    serviceUrl: http://127.0.0.1:3000\n'), {})

    expect(findings.viaService).toBe('http://127.0.0.1:3000')
    expect(findings.slack).toBeUndefined()
  })

  it('says which Node the check must run with when this one is not the harness\'s', () => {
    const results = byName(profile('headless', GOOD))
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
    const harnessNode = major >= 24 || (major === 22 && minor >= 19)

    expect(results.Node).toMatchObject(harnessNode ? { ok: true } : { ok: false, detail: expect.stringContaining('^22.19.0 || >=24') })
  })
})
