import pino from 'pino'
import type { Logger } from './logger.js'
import { LineBatch } from './line-batch.js'
import { scrubSecrets } from './scrub.js'

/**
 * `DSH_SLACK_LOG_FORMAT=json`: one JSON object per line on stderr (stdout
 * stays the CLI's), `{"level":"info","time":"…","pid":…,"hostname":"…","name":"dsh-slack","msg":"…"}`
 * (pid and hostname tell several instances apart), for log collectors. The lines are the same as the human ones: ask ids,
 * channels and who answered, never tokens or question text.
 */
export function jsonLogger(options: { debug?: boolean; destination?: NodeJS.WritableStream | { write(line: string): unknown }; batched?: boolean } = {}): Logger {
  const target = options.destination ?? pino.destination({ fd: 2, sync: true })
  // Batched (the service's log, see LineBatch): pino hands each line to the batch, and a warning or an error writes it out at once.
  const batch = options.batched ? new LineBatch({ write: (text) => void target.write(text) }) : undefined
  const destination = batch ? { write: (line: string) => batch.later(line) } : target
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
    warn: (message) => {
      log.warn(scrubSecrets(message))
      batch?.flush()
    },
    error: (message) => {
      log.error(scrubSecrets(message))
      batch?.flush()
    },
    debug: (message) => log.debug(scrubSecrets(message)),
    debugEnabled: options.debug === true,
  }
}
