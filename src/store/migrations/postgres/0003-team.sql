-- Quorum approvals: one row per person per ask (the primary key is the "counts once" rule).
CREATE TABLE approvals (
  ask_id text NOT NULL,
  user_id text NOT NULL,
  seq bigserial,
  approval jsonb NOT NULL,
  PRIMARY KEY (ask_id, user_id)
);

-- Reminders and escalations still to send; claiming one deletes its row, so
-- exactly one instance ever gets it.
CREATE TABLE jobs (
  ask_id text NOT NULL,
  kind text NOT NULL,
  due_at bigint NOT NULL,
  PRIMARY KEY (ask_id, kind)
);
CREATE INDEX jobs_by_due ON jobs (due_at);

-- The audit trail: append-only, never pruned with its asks.
CREATE TABLE events (
  seq bigserial PRIMARY KEY,
  ask_id text NOT NULL,
  at bigint NOT NULL,
  event jsonb NOT NULL
);
CREATE INDEX events_by_ask ON events (ask_id, seq);
CREATE INDEX events_by_at ON events (at);
CREATE INDEX asks_by_created ON asks (created_at DESC, id DESC);
