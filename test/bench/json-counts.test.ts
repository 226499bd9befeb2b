import { describe, expect, it } from 'vitest'
import { callerOf, startJsonCounts } from './json-counts.js'

describe("the bench's JSON counts", () => {
  it('counts each parse and encoding with its characters and its caller, and puts JSON back when stopped', () => {
    const { parse, stringify } = JSON
    const stop = startJsonCounts()

    function encodeTwice(): string {
      return JSON.stringify(JSON.parse(JSON.stringify({ a: 1 })))
    }
    encodeTwice()
    const counts = stop()

    expect(counts.parse).toEqual({ calls: 1, chars: 7 })
    expect(counts.stringify).toEqual({ calls: 2, chars: 14 })
    expect(Object.entries(counts.byCaller).find(([caller]) => caller.includes(' encodeTwice'))?.[1]).toEqual({ parse: { calls: 1, chars: 7 }, stringify: { calls: 2, chars: 14 } })
    expect(JSON.parse).toBe(parse)
    expect(JSON.stringify).toBe(stringify)
  })

  it('names a caller by its file under dist/ and its function, or by its package', () => {
    expect(callerOf('    at readJson (file:///srv/dsh-slack/dist/src/http/read-body.js:12:20)')).toBe('src/http/read-body.js readJson')
    expect(callerOf('    at async Object.handle (file:///srv/dsh-slack/node_modules/@slack/bolt/dist/App.js:1:2)')).toBe('@slack/bolt')
    expect(callerOf('    at file:///srv/dsh-slack/node_modules/pg/lib/result.js:5:6')).toBe('pg')
  })
})
