import { describe, expect, it } from 'vitest'
import type { Logger } from '../../src/log/logger.js'
import { consoleLogger, silentLogger } from '../../src/log/logger.js'
import { jsonLogger } from '../../src/log/json-logger.js'
import { boltLogger } from '../../src/slack/bolt-logger.js'

/** A logger that keeps its lines; `debugEnabled` as given (absent: a logger that does not say). */
function keeping(debugEnabled?: boolean): Logger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
    debug: (message) => lines.push(`debug ${message}`),
    ...(debugEnabled === undefined ? {} : { debugEnabled }),
  }
}

/** An argument that counts how often it is turned into text. */
function counted(text: string): { value: object; count: () => number } {
  let count = 0
  return {
    value: {
      toString() {
        count++
        return text
      },
    },
    count: () => count,
  }
}

describe('the Slack SDK’s log through ours', () => {
  it('does not build debug or info lines a logger drops', () => {
    const logger = keeping(false)
    const slack = boltLogger(logger)
    const body = counted('http request body: {"channel":"C1"}')
    slack.debug(body.value)
    slack.info('socket', body.value)
    expect(body.count()).toBe(0)
    expect(logger.lines).toEqual([])
  })

  it('passes debug and info detail on as debug lines to a logger that keeps them, or does not say', () => {
    for (const logger of [keeping(true), keeping()]) {
      const slack = boltLogger(logger)
      slack.setName('socket-mode')
      slack.debug('received', counted('a message').value)
      slack.info('connected')
      expect(logger.lines).toEqual(['debug socket-mode: received a message', 'debug socket-mode: connected'])
    }
  })

  it('always passes warnings and errors on', () => {
    const logger = keeping(false)
    const slack = boltLogger(logger)
    slack.warn('http request failed', 'fetch failed')
    slack.error('boom')
    expect(logger.lines).toEqual(['warn slack: http request failed fetch failed', 'error slack: boom'])
  })

  it('learns from each logger dsh-slack makes whether it keeps debug lines', () => {
    expect(consoleLogger().debugEnabled).toBe(false)
    expect(consoleLogger({ debug: true }).debugEnabled).toBe(true)
    expect(jsonLogger({ destination: { write: () => true } }).debugEnabled).toBe(false)
    expect(jsonLogger({ destination: { write: () => true }, debug: true }).debugEnabled).toBe(true)
    expect(silentLogger.debugEnabled).toBe(false)
  })
})
