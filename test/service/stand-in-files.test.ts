import { describe, expect, it } from 'vitest'

import { standInFiles, standInNote } from '../../src/service/stand-in-files.js'

describe('where the stand-in keeps its state', () => {
  it('puts its workspace and its asks beside the state file, in files of their own', () => {
    expect(standInFiles('.dsh-slack/state.sqlite', 4100)).toEqual({ workspaceFile: '.dsh-slack/sandbox-4100.json', statePath: '.dsh-slack/sandbox-4100.sqlite' })
    expect(standInFiles('/var/lib/dsh/asks.db', 4100)).toEqual({ workspaceFile: '/var/lib/dsh/sandbox-4100.json', statePath: '/var/lib/dsh/sandbox-4100.sqlite' })
  })

  it('gives each stand-in port files of its own, so two stand-ins never share a workspace or questions', () => {
    expect(standInFiles('.dsh-slack/state.sqlite', 4200)).toEqual({ workspaceFile: '.dsh-slack/sandbox-4200.json', statePath: '.dsh-slack/sandbox-4200.sqlite' })
  })

  it('keeps nothing with :memory:', () => {
    expect(standInFiles(':memory:', 4100)).toEqual({ statePath: ':memory:' })
  })

  it('keeps a stand-in of its own under .dsh-slack/ when the state is a shared database', () => {
    expect(standInFiles('postgres://dsh@db.internal/dsh', 4100)).toEqual({ workspaceFile: '.dsh-slack/sandbox-4100.json', statePath: '.dsh-slack/sandbox-4100.sqlite' })
  })

  it('says at start that a DSH_SLACK_STATE database is not used by the stand-in, and what to do instead', () => {
    const note = standInNote('postgres://dsh@db.internal/dsh', standInFiles('postgres://dsh@db.internal/dsh', 4100))
    expect(note).toContain('kept in .dsh-slack/sandbox-4100.sqlite, not in the database')
    expect(note).toContain('dsh-slack sandbox')
    expect(standInNote('.dsh-slack/state.sqlite', standInFiles('.dsh-slack/state.sqlite', 4100))).toBeUndefined()
  })
})
