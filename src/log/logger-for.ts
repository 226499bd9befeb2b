import { jsonLogger } from './json-logger.js'
import { consoleLogger, type Logger } from './logger.js'

/** The format of the service's log (`DSH_SLACK_LOG_FORMAT`). */
export type LogFormat = 'text' | 'json'

/** Human lines by default; JSON lines for a log collector. `batched`: the service's log, written a few lines together (LineBatch). */
export function loggerFor(format: LogFormat, options: { debug?: boolean; batched?: boolean } = {}): Logger {
  return format === 'json' ? jsonLogger(options) : consoleLogger(options)
}
