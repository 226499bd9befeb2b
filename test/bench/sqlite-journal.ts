/**
 * The `durable` reference app's SQLite file: the bench's only SQLite
 * access. It uses node:sqlite as a plain Bolt app would, not dsh-slack's
 * own adapter (src/store/sqlite-driver.ts), so the peer pays nothing of ours.
 */
import { DatabaseSync } from 'node:sqlite'
import type { Journal } from './journal.js'

/**
 * The least a Bolt app pays to keep an ask as dsh-slack promises to: one
 * row in a SQLite file (WAL, synchronous NORMAL, as dsh-slack's), inserted
 * before the post, its message recorded after it, the first answer settled
 * in a transaction with the event that records who answered (one wins,
 * durably, with its audit row, before the agent hears it), and the card's
 * update marked once it shows. Four commits.
 */
export function sqliteJournal(path: string): Journal {
  const db = new DatabaseSync(path)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('CREATE TABLE IF NOT EXISTS asks (id TEXT PRIMARY KEY, channel TEXT NOT NULL, ts TEXT, answer TEXT, shown INTEGER NOT NULL DEFAULT 0)')
  db.exec('CREATE TABLE IF NOT EXISTS events (ask_id TEXT NOT NULL, kind TEXT NOT NULL, by TEXT NOT NULL, at INTEGER NOT NULL)')
  const asked = db.prepare('INSERT INTO asks (id, channel) VALUES (?, ?)')
  const posted = db.prepare('UPDATE asks SET ts = ? WHERE id = ?')
  const answered = db.prepare('UPDATE asks SET answer = ? WHERE id = ? AND answer IS NULL')
  const event = db.prepare('INSERT INTO events (ask_id, kind, by, at) VALUES (?, ?, ?, ?)')
  const shown = db.prepare('UPDATE asks SET shown = 1 WHERE id = ?')
  const settle = (id: string, answer: string, by: string): boolean => {
    db.exec('BEGIN')
    try {
      if (answered.run(answer, id).changes !== 1) {
        db.exec('ROLLBACK')
        return false
      }
      event.run(id, 'answered', by, Date.now())
      db.exec('COMMIT')
      return true
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }
  return {
    asked: async (id, channel) => void asked.run(id, channel),
    posted: async (id, ts) => void posted.run(ts, id),
    settled: async (id, answer, by) => settle(id, answer, by),
    shown: async (id) => void shown.run(id),
  }
}
