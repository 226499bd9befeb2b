import { LogLevel, type Logger as BoltLogger } from '@slack/bolt'
import type { Logger } from '../log/logger.js'

/**
 * Bolt and the SDK log through our logger. Their info lines (socket
 * connects, retries) are debug detail for us; warnings and errors pass on.
 */
export function boltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.WARN
  let name = 'slack'
  // Built only when kept: the SDK logs several debug lines on every call, and joining them is work a request pays for nothing.
  const detail = (messages: unknown[]) => {
    if (logger.debugEnabled !== false) logger.debug(`${name}: ${messages.map(String).join(' ')}`)
  }
  return {
    debug: (...messages: unknown[]) => detail(messages),
    info: (...messages: unknown[]) => detail(messages),
    warn: (...messages: unknown[]) => logger.warn(`${name}: ${messages.map(String).join(' ')}`),
    error: (...messages: unknown[]) => logger.error(`${name}: ${messages.map(String).join(' ')}`),
    setLevel: (next: LogLevel) => {
      level = next
    },
    getLevel: () => level,
    setName: (next: string) => {
      name = next
    },
  }
}
