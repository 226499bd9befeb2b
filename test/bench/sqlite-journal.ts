/**
 * The `durable` reference app's SQLite file: the bench's only SQLite
 * access. It uses node:sqlite as a plain Bolt app would, not dsh-slack's
 * own adapter (src/store/sqlite-driver.ts), so the peer pays nothing of ours.
 */
import { DatabaseSync } from 'node:sqlite'
import type { Journal } from './journal.js'

/**
 * The peer bench's E (bare Bolt + SQLite): one row per ask in a SQLite file
 * (WAL, synchronous NORMAL, as dsh-slack's), inserted before the post, its
 * card recorded after it, and the first answer settled in a transaction of
 * one conditional update (a second click changes nothing). Three commits;
 * the statements are E's, on node:sqlite where E has better-sqlite3 (the
 * same cost, measured: docs/benchmarks.md).
 */
export function sqliteJournal(path: string): Journal {
  const db = new DatabaseSync(path)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec(`CREATE TABLE IF NOT EXISTS asks (
    id TEXT PRIMARY KEY, question TEXT NOT NULL, status TEXT NOT NULL, channel TEXT, ts TEXT,
    answer TEXT, answered_by TEXT, created_at INTEGER NOT NULL, answered_at INTEGER
  )`)
  const insert = db.prepare("INSERT INTO asks (id, question, status, created_at) VALUES (?, ?, 'pending', ?)")
  const posted = db.prepare('UPDATE asks SET channel = ?, ts = ? WHERE id = ?')
  const settle = db.prepare("UPDATE asks SET status = 'answered', answer = ?, answered_by = ?, answered_at = ? WHERE id = ? AND status = 'pending'")
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  const settled = (id: string, label: string, user: string): boolean => {
    begin.run()
    try {
      const won = settle.run(label, user, Date.now(), id).changes === 1
      commit.run()
      return won
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }
  return {
    opened: async (id, question) => void insert.run(id, JSON.stringify(question), Date.now()),
    posted: async (id, channel, ts) => void posted.run(channel, ts, id),
    settled: async (id, label, user) => settled(id, label, user),
  }
}
