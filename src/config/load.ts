import dotenv from 'dotenv'
import { ConfigError } from './config-error.js'
import { configFromEnv, type Config } from './config.js'

/** Where `loadConfig` reads from; both default to the process's own. */
export interface LoadConfigOptions {
  /** The `.env` file to load (default `.env` in the working directory). A missing file is fine. */
  envFile?: string
  /** The environment to fill and read (default `process.env`). */
  env?: NodeJS.ProcessEnv
}

/**
 * The configuration of a running service: `.env` first, then the environment.
 * A variable already in the environment always wins over `.env`, even when it
 * is set to an empty string (so `SLACK_BOT_TOKEN= npm start` forces the local
 * stand-in whatever `.env` says). dotenv runs quietly: its banner would be the
 * first line a person sees. Throws a `ConfigError` naming the bad variable.
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env
  const result = dotenv.config({ quiet: true, override: false, processEnv: env, ...(options.envFile ? { path: options.envFile } : {}) })
  const code = (result.error as { code?: unknown } | undefined)?.code
  if (result.error && code !== 'ENOENT') {
    throw new ConfigError(options.envFile ?? '.env', `could not be read (${typeof code === 'string' ? code : result.error.message})`)
  }
  return configFromEnv(env)
}
