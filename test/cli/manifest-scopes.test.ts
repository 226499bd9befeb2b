import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MANIFEST_BOT_SCOPES } from '../../src/cli/doctor/manifest-scopes.js'

/** The `- scope` lines under oauth_config.scopes.bot in manifest.yml (comments skipped). */
function manifestBotScopes(): string[] {
  const text = readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')
  const lines = text.split('\n')
  const start = lines.findIndex((line) => /^\s{4}bot:\s*$/.test(line))
  const scopes: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^\s*#/.test(line) || line.trim() === '') continue
    const item = /^\s{6}- ([a-z_:.]+)\s*$/.exec(line)
    if (!item) break
    scopes.push(item[1]!)
  }
  return scopes
}

describe('the scopes doctor expects', () => {
  it('are exactly the bot scopes manifest.yml asks for', () => {
    expect([...MANIFEST_BOT_SCOPES].sort()).toEqual(manifestBotScopes().sort())
  })
})
