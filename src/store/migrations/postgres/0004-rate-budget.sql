-- Slack's rate limits are per app and workspace, not per process: every
-- instance on one Slack app paces its calls against these shared buckets
-- (a GCRA's "theoretical arrival time" per bucket, in ms of the database's
-- clock, so instances on machines with skewed clocks still agree).
CREATE TABLE rate_budget (
  key text PRIMARY KEY,
  tat double precision NOT NULL
);
