import { describe, expect, it } from 'vitest'

import { stopNote } from '../../src/service/stop-note.js'

describe('the stop line’s note', () => {
  it('says open questions stay open, and where, when asks are kept in a file', () => {
    expect(stopNote({ statePath: '.dsh-slack/state.sqlite', local: false })).toBe('open questions stay open in .dsh-slack/state.sqlite; a click after the next start still answers them')
  })

  it('names the stand-in’s files, and --fresh, against the stand-in', () => {
    expect(stopNote({ statePath: '.dsh-slack/sandbox.sqlite', workspaceFile: '.dsh-slack/sandbox.json', local: true })).toBe(
      "open questions stay open: the stand-in's workspace in .dsh-slack/sandbox.json and their state in .dsh-slack/sandbox.sqlite are kept for the next start (--fresh starts empty)",
    )
  })

  it('says nothing is kept with :memory:, in each mode', () => {
    expect(stopNote({ statePath: ':memory:', local: true })).toMatch(/^DSH_SLACK_STATE is :memory:, so nothing is kept: open questions are withdrawn/)
    expect(stopNote({ statePath: ':memory:', local: false })).toBe('DSH_SLACK_STATE is :memory:, so open questions are withdrawn (their messages say so)')
    expect(stopNote({ statePath: ':memory:', local: false, noun: 'requests', relay: true })).toMatch(/the host keeps them and the next start posts them again$/)
  })

  it('never prints a database URL, which may carry a password', () => {
    const note = stopNote({ statePath: 'postgres://dsh:s3cret@db.internal/dsh', local: false })

    expect(note).not.toContain('s3cret')
    expect(note).toBe('open questions stay open in the database DSH_SLACK_STATE names; a click after the next start still answers them')
  })
})
