import { LineBatch } from './line-batch.js'
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

export interface ConsoleLoggerOptions {
  debug?: boolean
  /**
   * Info and debug lines written a few together, a moment later (warnings
   * and errors at once, in order): the service's log, off its round trip
   * (see LineBatch). A CLI command writes each line as it comes.
   */
  batched?: boolean
}

/** Writes `level message` lines to stderr, so stdout stays clean for the CLI's JSON output. */
export function consoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const line = (level: string, message: string) => `${new Date().toISOString()} ${level} ${scrubSecrets(message)}\n`
  const batch = options.batched ? new LineBatch({ write: (text) => process.stderr.write(text) }) : undefined
  const later = batch ? (text: string) => batch.later(text) : (text: string) => void process.stderr.write(text)
  const now = batch ? (text: string) => batch.now(text) : (text: string) => void process.stderr.write(text)
  return {
    info: (message) => later(line('info ', message)),
    warn: (message) => now(line('warn ', message)),
    error: (message) => now(line('error', message)),
    debug: (message) => {
      if (options.debug) later(line('debug', message))
    },
    debugEnabled: options.debug === true,
  }
}

/** Discards everything: tests and embedded uses that log elsewhere. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {}, debugEnabled: false }
