/**
 * Keeps a stand-in's workspace in a JSON file between runs, so a restart
 * finds its channels, messages, threads, files and open modals where Slack
 * would still have them. Saves are debounced (a burst of changes costs one
 * write) and atomic (a temporary file renamed over the old one, so a crash
 * mid-write leaves the previous version, never half of one).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

import { SandboxError } from './errors.js'
import { workspaceData, type WorkspaceData } from './workspace-data.js'
import type { Workspace } from './workspace.js'

/** Stand-in knob: how long after a change the file is written (more changes within it join the same write). */
export const SAVE_DEBOUNCE_MS = 200

/**
 * The saved workspace at `path`, or `undefined` when there is none yet.
 * Throws `BAD_WORKSPACE_FILE` with a way out when the file is not one.
 */
export function readWorkspaceFile(path: string): WorkspaceData | undefined {
  if (!existsSync(path)) return undefined
  const fix = `move it away, or start with --fresh to begin with an empty workspace`
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new SandboxError('BAD_WORKSPACE_FILE', `${path} is not JSON (${(error as Error).message}): ${fix}`)
  }
  const parsed = workspaceData.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''
    throw new SandboxError('BAD_WORKSPACE_FILE', `${path} is not a stand-in workspace of this version (${issue?.message ?? 'unreadable'}${where}): ${fix}`)
  }
  return parsed.data
}

/** Writes `data` to `path` atomically, creating the folder if needed. */
export function writeWorkspaceFile(path: string, data: WorkspaceData): void {
  // Private like the state file beside it: it holds the messages, typed answers included.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, JSON.stringify(data), { mode: 0o600 })
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** Follows a workspace's `dirty` events and keeps `path` up to date until `close()`. */
export class WorkspaceFile {
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private readonly onDirty = (): void => {
    if (this.closed || this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.save()
    }, SAVE_DEBOUNCE_MS)
  }

  /**
   * Writes the workspace once now (so a bad path fails at start, and `--fresh`
   * replaces the old file at once), then after every change.
   */
  constructor(
    readonly path: string,
    private readonly workspace: Workspace,
    private readonly onError: (error: Error) => void,
  ) {
    writeWorkspaceFile(path, workspace.dump())
    workspace.on('dirty', this.onDirty)
  }

  private save(): void {
    try {
      writeWorkspaceFile(this.path, this.workspace.dump())
    } catch (error) {
      this.onError(error as Error)
    }
  }

  /** Writes what is still pending and stops following the workspace. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.workspace.off('dirty', this.onDirty)
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
      this.save()
    }
  }
}
