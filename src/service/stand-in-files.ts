/**
 * Where the local stand-in and the bridge running against it keep their
 * state: beside DSH_SLACK_STATE, in files of their own. Own files, because
 * asks posted to the stand-in name its channels and messages: kept in the
 * real state file, they would follow the service to real Slack once a token
 * is set (a relay would then think a host's question was already posted).
 *
 * - `DSH_SLACK_STATE` a SQLite file `dir/x.sqlite` (default
 *   `.dsh-slack/state.sqlite`): the workspace in `dir/sandbox-PORT.json`,
 *   the asks in `dir/sandbox-PORT.sqlite`, PORT being the stand-in's
 *   (DSH_SLACK_SANDBOX_PORT), so two stand-ins on two ports never share a
 *   workspace or each other's questions.
 * - `:memory:`: both in memory; nothing is kept.
 * - a database URL (`postgres://…`, shared by several processes): the
 *   stand-in is one process's own, so its files go to `.dsh-slack/`, and
 *   the database is not used (`standInNote` says so at start).
 */
import { existsSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'

import { DEFAULT_STATE_PATH } from '../config/config.js'

export interface StandInFiles {
  /** The stand-in's workspace (channels, messages, files, open modals); absent: memory only. */
  workspaceFile?: string
  /** The bridge's asks while it runs against the stand-in: a SQLite file, or `:memory:`. */
  statePath: string
}

const DATABASE_URL = /^[a-z][a-z0-9+.-]*:\/\//i

export function standInFiles(statePath: string, port: number): StandInFiles {
  if (statePath === ':memory:') return { statePath: ':memory:' }
  const dir = DATABASE_URL.test(statePath) ? dirname(DEFAULT_STATE_PATH) : dirname(statePath)
  return { workspaceFile: join(dir, `sandbox-${port}.json`), statePath: join(dir, `sandbox-${port}.sqlite`) }
}

/**
 * Where `serve` with this configuration keeps its asks, for the commands
 * that read them (`audit`): DSH_SLACK_STATE with a bot token; without one,
 * the local stand-in's own file.
 */
export function servedStatePath(config: { botToken?: string; statePath: string; sandboxPort: number }): { path: string; standIn: boolean } {
  if (config.botToken) return { path: config.statePath, standIn: false }
  return { path: standInFiles(config.statePath, config.sandboxPort).statePath, standIn: true }
}

/**
 * What a person who set DSH_SLACK_STATE to a database must hear when the
 * stand-in runs instead of Slack: the database stays untouched, and how to
 * try several instances on it. `undefined` for a file or `:memory:`.
 */
export function standInNote(configured: string, files: StandInFiles): string | undefined {
  if (!DATABASE_URL.test(configured)) return undefined
  return `DSH_SLACK_STATE names a database, but without SLACK_BOT_TOKEN this process runs its own local stand-in: its questions are kept in ${files.statePath}, not in the database. To try several instances on the database, run \`dsh-slack sandbox\` once and start each instance with the SLACK_* lines it prints (docs/several-instances.md)`
}

/** `--fresh`: forgets the stand-in's asks (the workspace file is replaced when the stand-in starts empty). */
export function forgetStandInAsks(files: StandInFiles): void {
  if (files.statePath === ':memory:') return
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const path = `${files.statePath}${suffix}`
    if (existsSync(path)) rmSync(path)
  }
}
