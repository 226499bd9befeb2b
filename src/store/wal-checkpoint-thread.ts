/**
 * The WAL checkpoint thread: copies the pages that the event loop's commits
 * appended to each state file's write-ahead log into the database file, on
 * a connection of its own. SQLite's automatic checkpoint would do it inside
 * a commit on the event loop, stalling every click and request behind it for
 * several milliseconds (the copy and two syncs). See WalCheckpointer.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { SqliteDatabase } from './sqlite-driver.js'
import type { CheckpointReply, CheckpointRequest } from './wal-checkpoints.js'

const intervalMs = (workerData as { intervalMs: number }).intervalMs
const files = new Map<number, SqliteDatabase>()
let timer: NodeJS.Timeout | undefined

function reply(message: CheckpointReply): void {
  parentPort?.postMessage(message)
}

function open(id: number, path: string): void {
  try {
    const db = new SqliteDatabase(path, { fileMustExist: true })
    files.set(id, db)
    timer ??= setInterval(checkpointAll, intervalMs)
    reply({ kind: 'adopted', id })
  } catch (error) {
    reply({ kind: 'failed', id, reason: describe(error) })
  }
}

function close(id: number): void {
  const db = files.get(id)
  files.delete(id)
  try {
    db?.close()
  } finally {
    if (files.size === 0 && timer) {
      clearInterval(timer)
      timer = undefined
    }
    reply({ kind: 'released', id })
  }
}

/**
 * PASSIVE: copies what no reader still needs, never waits for a reader or a
 * writer, and does nothing (no sync) when every frame is already copied.
 */
function checkpointAll(): void {
  for (const [id, db] of files) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)')
    } catch (error) {
      // The file went away or the disk failed: the main thread checkpoints this file itself from now on.
      files.delete(id)
      db.close()
      reply({ kind: 'failed', id, reason: describe(error) })
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

parentPort?.on('message', (request: CheckpointRequest) => {
  if (request.kind === 'adopt') open(request.id, request.path)
  else close(request.id)
})
