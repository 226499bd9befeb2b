/**
 * Where the local stand-in and the bridge running against it keep their
 * state: beside DSH_SLACK_STATE, in files of their own. Own files, because
 * asks posted to the stand-in name its channels and messages: kept in the
 * real state file, they would follow the service to real Slack once a token
 * is set (a relay would then think a host's question was already posted).
 *
 * - `DSH_SLACK_STATE` a SQLite file `dir/x.sqlite` (default
 *   `.dsh-slack/state.sqlite`): the workspace in `dir/sandbox.json`, the
 *   asks in `dir/sandbox.sqlite`.
 * - `:memory:`: both in memory; nothing is kept.
 * - a database URL (`postgres://…`, shared by several processes): the
 *   stand-in is one process's own, so its files go to `.dsh-slack/`.
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

export function standInFiles(statePath: string): StandInFiles {
  if (statePath === ':memory:') return { statePath: ':memory:' }
  const dir = /^[a-z][a-z0-9+.-]*:\/\//i.test(statePath) ? dirname(DEFAULT_STATE_PATH) : dirname(statePath)
  return { workspaceFile: join(dir, 'sandbox.json'), statePath: join(dir, 'sandbox.sqlite') }
}

/** `--fresh`: forgets the stand-in's asks (the workspace file is replaced when the stand-in starts empty). */
export function forgetStandInAsks(files: StandInFiles): void {
  if (files.statePath === ':memory:') return
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const path = `${files.statePath}${suffix}`
    if (existsSync(path)) rmSync(path)
  }
}
