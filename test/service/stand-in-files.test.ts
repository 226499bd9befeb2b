import { describe, expect, it } from 'vitest'

import { standInFiles } from '../../src/service/stand-in-files.js'

describe('where the stand-in keeps its state', () => {
  it('puts its workspace and its asks beside the state file, in files of their own', () => {
    expect(standInFiles('.dsh-slack/state.sqlite')).toEqual({ workspaceFile: '.dsh-slack/sandbox.json', statePath: '.dsh-slack/sandbox.sqlite' })
    expect(standInFiles('/var/lib/dsh/asks.db')).toEqual({ workspaceFile: '/var/lib/dsh/sandbox.json', statePath: '/var/lib/dsh/sandbox.sqlite' })
  })

  it('keeps nothing with :memory:', () => {
    expect(standInFiles(':memory:')).toEqual({ statePath: ':memory:' })
  })

  it('keeps a stand-in of its own under .dsh-slack/ when the state is a shared database', () => {
    expect(standInFiles('postgres://dsh@db.internal/dsh')).toEqual({ workspaceFile: '.dsh-slack/sandbox.json', statePath: '.dsh-slack/sandbox.sqlite' })
  })
})
