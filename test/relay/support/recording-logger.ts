import type { Logger, LogLevel } from '../../../src/log/logger.js'

export interface LogLine {
  level: LogLevel
  message: string
}

/** A logger that keeps its lines, for assertions on what an operator reads. */
export function recordingLogger(): Logger & { lines: LogLine[]; text(level?: LogLevel): string[] } {
  const lines: LogLine[] = []
  const log = (level: LogLevel) => (message: string) => void lines.push({ level, message })
  return {
    lines,
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    debug: log('debug'),
    text: (level) => lines.filter((line) => level === undefined || line.level === level).map((line) => line.message),
  }
}
