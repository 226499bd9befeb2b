-- Issue 52 (decisions 0103, 0104). The lease sweep finds what it may act on by index,
-- instead of reading every pending ask every few seconds on every instance.
-- An ask's expiry, as a column the sweep can seek on (written at insert; it never changes).
ALTER TABLE asks ADD COLUMN expires_at INTEGER;
UPDATE asks SET expires_at = json_extract(record, '$.expiresAt') WHERE status = 'pending';
-- Only an unposted ask holds a post claim now (recording its card clears it): a posted one gives it up here,
-- and an unposted one without a claim gets one that has run out, so the sweep posts it as before.
UPDATE asks SET post_claim = NULL, post_claim_until = NULL WHERE json_extract(record, '$.message') IS NOT NULL;
UPDATE asks SET post_claim_until = 0 WHERE status = 'pending' AND post_claim_until IS NULL AND json_extract(record, '$.message') IS NULL;
CREATE INDEX asks_pending_expiry ON asks (expires_at) WHERE status = 'pending' AND expires_at IS NOT NULL;
CREATE INDEX asks_pending_unposted ON asks (post_claim_until) WHERE status = 'pending' AND post_claim_until IS NOT NULL;
-- A library process's asks (its process may be gone); a service's are the service's own.
CREATE INDEX asks_pending_library ON asks (created_at) WHERE status = 'pending' AND owner <> '{"kind":"service"}';
-- Fewer pages written a round trip (decision 0103): every commit writes each page it changed to the WAL (two writes
-- a page) and the checkpoint copies it again. The pending asks' index holds only the pending ones, so a settle
-- deletes one entry instead of moving it across the index; and events number themselves without AUTOINCREMENT,
-- which wrote sqlite_sequence's page with every event (events are never deleted, so a number is never reused).
CREATE INDEX asks_pending_key ON asks (api_key) WHERE status = 'pending';
DROP INDEX asks_by_status_key;
CREATE TABLE events_numbered (
  seq INTEGER PRIMARY KEY,
  ask_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
);
INSERT INTO events_numbered (seq, ask_id, at, event) SELECT seq, ask_id, at, event FROM events;
DROP TABLE events;
ALTER TABLE events_numbered RENAME TO events;
CREATE INDEX events_by_ask ON events (ask_id, seq);
CREATE INDEX events_by_at ON events (at);
