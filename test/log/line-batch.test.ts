import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonLogger } from '../../src/log/json-logger.js'
import { LineBatch } from '../../src/log/line-batch.js'

function batchOf(options: { batchMs?: number; batchChars?: number } = {}) {
  const writes: string[] = []
  let atExit: (() => void) | undefined
  const batch = new LineBatch({ write: (text) => void writes.push(text), ...options, onExit: (flush) => ((atExit = flush), () => (atExit = undefined)) })
  return { batch, writes, exit: () => atExit?.() }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('LineBatch (the service log, off the round trip)', () => {
  it('writes info lines together, once the first of them has waited batchMs', () => {
    vi.useFakeTimers()
    const { batch, writes } = batchOf({ batchMs: 25 })

    batch.later('ask a posted\n')
    vi.advanceTimersByTime(10)
    batch.later('ask a answered\n')
    expect(writes).toEqual([])
    vi.advanceTimersByTime(15)

    expect(writes).toEqual(['ask a posted\nask a answered\n'])
  })

  it('writes a warning at once, after the lines waiting before it, in order', () => {
    vi.useFakeTimers()
    const { batch, writes } = batchOf()

    batch.later('first\n')
    batch.now('second, a warning\n')
    batch.later('third\n')
    expect(writes).toEqual(['first\nsecond, a warning\n'])
    vi.runAllTimers()

    expect(writes.join('')).toBe('first\nsecond, a warning\nthird\n')
  })

  it('writes a batch at once when it reaches batchChars', () => {
    vi.useFakeTimers()
    const { batch, writes } = batchOf({ batchChars: 10 })

    batch.later('12345\n')
    batch.later('67890\n')

    expect(writes).toEqual(['12345\n67890\n'])
  })

  it('writes what waits when the process exits, and nothing twice', () => {
    vi.useFakeTimers()
    const { batch, writes, exit } = batchOf()

    batch.later('stopping\n')
    exit()
    expect(writes).toEqual(['stopping\n'])
    vi.runAllTimers()

    expect(writes).toEqual(['stopping\n'])
    batch.close()
  })

  it('keeps the JSON log one object per line, a warning writing out the info before it', () => {
    vi.useFakeTimers()
    const writes: string[] = []
    const logger = jsonLogger({ destination: { write: (text: string) => void writes.push(text) }, batched: true })

    logger.info('ask abc posted to C0123')
    expect(writes).toEqual([])
    logger.warn('could not tell U1')

    expect(writes.join('').trimEnd().split('\n').map((line) => JSON.parse(line).msg)).toEqual(['ask abc posted to C0123', 'could not tell U1'])
  })
})
