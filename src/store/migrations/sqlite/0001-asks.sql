-- Every ask, whole, as JSON; beside it the columns that are queried.
CREATE TABLE IF NOT EXISTS asks (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  external_key TEXT UNIQUE,
  owner TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  settled_at INTEGER,
  record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS asks_by_status ON asks (status);
