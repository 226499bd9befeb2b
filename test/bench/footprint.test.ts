import { describe, expect, it } from 'vitest'
import { footprintOf, groupOf, startFootprint } from './footprint.js'

describe("the bench's footprint (code run per event)", () => {
  it('sorts code by where it lives: our build, zod, the Slack SDK, other packages, Node', () => {
    expect(groupOf('file:///srv/dsh-slack/dist/src/bridge/ask-lifecycle.js')).toBe('dsh-slack')
    expect(groupOf('file:///srv/dsh-slack/dist/blocks/text.js')).toBe('dsh-slack')
    expect(groupOf('file:///srv/dsh-slack/dist/test/bench/app-child.js')).toBe('bench harness')
    expect(groupOf('file:///srv/dsh-slack/node_modules/zod/v4/core/schemas.js')).toBe('zod')
    expect(groupOf('file:///srv/dsh-slack/node_modules/@slack/bolt/dist/App.js')).toBe('Bolt and the SDK')
    expect(groupOf('file:///srv/dsh-slack/node_modules/undici/lib/dispatcher/client-h1.js')).toBe('other packages')
    expect(groupOf('node:internal/streams/readable')).toBe('Node')
    expect(groupOf('')).toBeUndefined()
  })

  it('counts the functions that ran and their calls, by group and by file of our own', () => {
    const footprint = footprintOf([
      {
        url: 'file:///x/dist/src/http/send-json.js',
        functions: [
          { functionName: '', ranges: [{ count: 1 }] },
          { functionName: 'sendJson', ranges: [{ count: 25 }] },
          { functionName: 'unused', ranges: [{ count: 0 }] },
        ],
      },
      { url: 'file:///x/node_modules/zod/index.js', functions: [{ functionName: 'parse', ranges: [{ count: 50 }] }] },
      { url: '', functions: [{ functionName: 'eval', ranges: [{ count: 9 }] }] },
    ])
    expect(footprint.groups['dsh-slack']).toEqual({ functions: 2, calls: 26 })
    expect(footprint.groups.zod).toEqual({ functions: 1, calls: 50 })
    expect(footprint.groups.Node).toEqual({ functions: 0, calls: 0 })
    expect(footprint.ownFiles).toEqual({ 'src/http/send-json.js': { functions: 2, calls: 26 } })
  })

  it('counts only the calls made after it starts', () => {
    let sum = 0
    const add = (value: number) => (sum += value)
    const many = () => {
      for (let i = 0; i < 5000; i++) add(i)
    }
    // This file runs from its TypeScript source (not a build): its code counts as another package's.
    many()
    const before = startFootprint()().groups['other packages'].calls
    const stop = startFootprint()
    many()
    const after = stop().groups['other packages'].calls
    expect(sum).toBe(2 * 12_497_500)
    expect(before).toBeLessThan(5000)
    expect(after).toBeGreaterThanOrEqual(5000)
  })
})
