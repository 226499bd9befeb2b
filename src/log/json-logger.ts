import pino from 'pino'
import type { Logger } from './logger.js'
import { scrubSecrets } from './scrub.js'

/**
 * `DSH_SLACK_LOG_FORMAT=json`: one JSON object per line on stderr (stdout
 * stays the CLI's), `{"level":"info","time":"…","pid":…,"hostname":"…","name":"dsh-slack","msg":"…"}`
 * (pid and hostname tell several instances apart), for log collectors. The lines are the same as the human ones: ask ids,
 * channels and who answered, never tokens or question text.
 */
export function jsonLogger(options: { debug?: boolean; destination?: NodeJS.WritableStream | { write(line: string): unknown } } = {}): Logger {
  const destination = options.destination ?? pino.destination({ fd: 2, sync: true })
  const log = pino(
    {
      name: 'dsh-slack',
      level: options.debug ? 'debug' : 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination as pino.DestinationStream,
  )
  return {
    info: (message) => log.info(scrubSecrets(message)),
    warn: (message) => log.warn(scrubSecrets(message)),
    error: (message) => log.error(scrubSecrets(message)),
    debug: (message) => log.debug(scrubSecrets(message)),
    debugEnabled: options.debug === true,
  }
}
