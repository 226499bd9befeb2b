import { DEFAULT_STATE_PATH } from '../config/config.js'
import type { Logger } from '../log/logger.js'
import type { AskStore } from './ask-store.js'
import { isPostgresUrl, PostgresAskStore } from './postgres/postgres-ask-store.js'
import { SqliteAskStore } from './sqlite-ask-store.js'

/**
 * The store for the `state` option: a store object as given; a
 * `postgres://…` (or `postgresql://…`) URL, shared by every process on one
 * Slack app; or a SQLite file at the path (`':memory:'` keeps asks in memory
 * only), by default `.dsh-slack/state.sqlite` under the working directory.
 */
export async function openStore(state: string | AskStore | undefined, options: { logger?: Logger } = {}): Promise<AskStore> {
  if (typeof state === 'object') return state
  if (state !== undefined && isPostgresUrl(state)) return PostgresAskStore.open(state, options.logger ? { logger: options.logger } : {})
  return new SqliteAskStore(state ?? DEFAULT_STATE_PATH, options.logger ? { logger: options.logger } : {})
}
