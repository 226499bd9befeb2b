import { DEFAULT_STATE_PATH } from '../config/config.js'
import type { AskStore } from './ask-store.js'
import { SqliteAskStore } from './sqlite-ask-store.js'

/**
 * The store for the `state` option: a store object as given (e.g. a
 * Redis-backed one), or a SQLite file at the path (`':memory:'` keeps asks in
 * memory only), by default `.dsh-slack/state.sqlite` under the working
 * directory.
 */
export function openStore(state: string | AskStore | undefined): AskStore {
  if (typeof state === 'object') return state
  return new SqliteAskStore(state ?? DEFAULT_STATE_PATH)
}
