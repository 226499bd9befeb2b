-- Quorum approvals, scheduled reminders/escalations, and the append-only audit trail.
CREATE TABLE IF NOT EXISTS approvals (
  ask_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  approval TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (ask_id, user_id)
);
CREATE TABLE IF NOT EXISTS jobs (
  ask_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  PRIMARY KEY (ask_id, kind)
);
CREATE INDEX IF NOT EXISTS jobs_by_due ON jobs (due_at);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  ask_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_ask ON events (ask_id, seq);
CREATE INDEX IF NOT EXISTS events_by_at ON events (at);
CREATE INDEX IF NOT EXISTS asks_by_created ON asks (created_at, id);
