import { scrubSecrets } from './scrub.js'

/** The levels a `Logger` writes at (its methods). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/**
 * The few log calls dsh-slack makes. One line per event; callers never pass
 * secrets (tokens, signing secrets, API keys) into a log line.
 */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
  debug(message: string): void
  /**
   * False when `debug` drops its lines, so a caller can skip building them
   * (the Slack SDK logs several per request). Absent: build them.
   */
  readonly debugEnabled?: boolean
}

/** Writes `level message` lines to stderr, so stdout stays clean for the CLI's JSON output. */
export function consoleLogger(options: { debug?: boolean } = {}): Logger {
  const write = (level: string, message: string) => process.stderr.write(`${new Date().toISOString()} ${level} ${scrubSecrets(message)}\n`)
  return {
    info: (message) => write('info ', message),
    warn: (message) => write('warn ', message),
    error: (message) => write('error', message),
    debug: (message) => {
      if (options.debug) write('debug', message)
    },
    debugEnabled: options.debug === true,
  }
}

/** Discards everything: tests and embedded uses that log elsewhere. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {}, debugEnabled: false }
