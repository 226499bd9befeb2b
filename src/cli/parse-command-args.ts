import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './usage-error.js'

/**
 * node:util `parseArgs`, strict, with its errors (unknown flag, missing
 * value) turned into a one-line `UsageError`. Every command declares
 * `help: { type: 'boolean', short: 'h' }` among its options.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ strict: true, ...config })
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''))
  }
}
