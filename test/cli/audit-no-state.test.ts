import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { auditCommand } from '../../src/cli/audit.js'
import { memoryIo } from '../support/memory-io.js'

const dirs: string[] = []

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-audit-'))
  dirs.push(dir)
  return dir
}

describe('dsh-slack audit with no state where it looks', () => {
  it('names DSH_SLACK_SANDBOX_PORT, the port it looked for, and the ports whose stand-in state is there (ports moved off 4100)', async () => {
    const dir = folder()
    writeFileSync(join(dir, 'sandbox-4170.sqlite'), '')
    const audit = memoryIo({ DSH_SLACK_STATE: join(dir, 'state.sqlite') })

    expect(await auditCommand([], audit.io)).toBe(0)

    expect(audit.errors()).toContain('DSH_SLACK_SANDBOX_PORT (this looked for 4100) and DSH_SLACK_STATE the service ran with')
    expect(audit.errors()).toContain("the stand-in's asks of port 4170")
    expect(readdirSync(dir)).toEqual(['sandbox-4170.sqlite'])
  })

  it('names DSH_SLACK_STATE when the service’s own state (with a bot token) is missing', async () => {
    const dir = folder()
    const audit = memoryIo({ DSH_SLACK_STATE: join(dir, 'state.sqlite'), SLACK_BOT_TOKEN: 'xoxb-1' })

    expect(await auditCommand([], audit.io)).toBe(0)

    expect(audit.errors()).toContain(`no state at ${join(dir, 'state.sqlite')}, so nothing to export. Run it where the service runs, with its DSH_SLACK_STATE`)
  })
})
