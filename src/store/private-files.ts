import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { basename, dirname } from 'node:path'

/** The folder dsh-slack keeps its state in by default; it holds nothing but ours. */
export const STATE_FOLDER_NAME = '.dsh-slack'

/**
 * Makes a SQLite state file private before SQLite opens it. The file holds
 * questions and typed answers (its WAL too, until a checkpoint), so only the
 * owner may read it: the file is created 0600 (SQLite gives its -wal and
 * -shm files the database file's mode), an existing one and its companions
 * are tightened to 0600, and the folder is created 0700.
 *
 * An existing folder is tightened only when it is our own `.dsh-slack`: a
 * state file placed in a shared folder (`/tmp`, `/var/lib`) must not change
 * who can list that folder.
 */
export function preparePrivateStateFile(path: string): void {
  try {
    const folder = dirname(path)
    const created = !existsSync(folder)
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    if (created || basename(folder) === STATE_FOLDER_NAME) chmodSync(folder, 0o700)
    closeSync(openSync(path, 'a', 0o600))
    tightenStateFiles(path)
  } catch (error) {
    throw new Error(`DSH_SLACK_STATE ${path} cannot hold the state: ${unusableBecause(error as NodeJS.ErrnoException)}; set DSH_SLACK_STATE to a file in a folder you can write, :memory:, or a postgres:// URL`, { cause: error })
  }
}

/** Why a state path cannot be used, in the person's words rather than the system call's. */
function unusableBecause(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'a part of its folder is a file, not a folder'
    case 'EISDIR':
      return 'it is a folder'
    case 'EACCES':
    case 'EPERM':
      return 'no permission to write there'
    case 'EROFS':
      return 'the file system is read-only'
    default:
      return error.message
  }
}

/** Sets the state file, its WAL and its shared-memory file (whichever exist) to 0600. */
export function tightenStateFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file)) chmodSync(file, 0o600)
  }
}
