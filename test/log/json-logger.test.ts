import { describe, expect, it } from 'vitest'
import { jsonLogger } from '../../src/log/json-logger.js'
import { scrubSecrets } from '../../src/log/scrub.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'

function capture() {
  const lines: string[] = []
  return { lines, destination: { write: (line: string) => void lines.push(line) } }
}

describe('jsonLogger', () => {
  it('writes one JSON object per line with level, time, name and msg', () => {
    const { lines, destination } = capture()

    jsonLogger({ destination }).warn('ask abc posted to C0123')

    expect(lines).toHaveLength(1)
    expect(lines[0]!.endsWith('\n')).toBe(true)
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), name: 'dsh-slack', msg: 'ask abc posted to C0123', pid: process.pid })
  })

  it('drops debug lines unless debug is on', () => {
    const quiet = capture()
    const chatty = capture()

    jsonLogger({ destination: quiet.destination }).debug('socket reconnecting')
    jsonLogger({ destination: chatty.destination, debug: true }).debug('socket reconnecting')

    expect(quiet.lines).toEqual([])
    expect(JSON.parse(chatty.lines[0]!)).toMatchObject({ level: 'debug' })
  })

  it('withholds anything shaped like a Slack token, wherever it appears in the line', () => {
    const { lines, destination } = capture()

    jsonLogger({ destination }).error('auth failed for xoxb-1234-5678-abcdef and xapp-1-A0-99-ff')

    expect(lines[0]).not.toMatch(/xox|xapp/)
    expect(JSON.parse(lines[0]!).msg).toBe('auth failed for [token withheld] and [token withheld]')
  })
})

describe('scrubSecrets', () => {
  it.each(['xoxb-1-2-abc', 'xoxp-99-zz', 'xapp-1-A01-77-ab', 'xoxe-1-abc'])('withholds %s', (token) => {
    expect(scrubSecrets(`token=${token};`)).toBe('token=[token withheld];')
  })

  it('withholds the user and password of any URL in the line, whatever its scheme', () => {
    expect(scrubSecrets('relaying http://user:hunter2@host:4000/x and postgres://svc:p@ss/w0rd@db:5432/app, ok')).toBe('relaying http://***@host:4000/x and postgres://***@db:5432/app, ok')
  })

  it('leaves ordinary text alone', () => {
    expect(scrubSecrets('ask q-xoxb answered by Alice (U0123)')).toBe('ask q-xoxb answered by Alice (U0123)')
  })
})

describe('store health (ping)', () => {
  it('answers true while a SQLite store is open and false once it is closed', async () => {
    const store = new SqliteAskStore(':memory:')

    const open = await store.ping()
    await store.close()

    expect(open).toBe(true)
    expect(await store.ping()).toBe(false)
    expect(store.kind).toBe('memory')
  })
})
