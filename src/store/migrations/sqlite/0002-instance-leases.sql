-- Library processes renew a lease here while they wait, so another process
-- can tell a waiting ask from one whose process is gone.
CREATE TABLE IF NOT EXISTS instance_leases (
  instance TEXT PRIMARY KEY,
  lease_until INTEGER NOT NULL
);
