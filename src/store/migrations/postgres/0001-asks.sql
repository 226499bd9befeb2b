-- Every ask, whole, as JSON (the record the AskStore contract returns);
-- beside it the columns that are queried or guarded.
CREATE TABLE asks (
  id text PRIMARY KEY,
  status text NOT NULL,
  external_key text UNIQUE,
  owner_instance text,
  created_at bigint NOT NULL,
  settled_at bigint,
  final_message_shown boolean,
  record jsonb NOT NULL
);
CREATE INDEX asks_pending ON asks (created_at) WHERE status = 'pending';
CREATE INDEX asks_unshown ON asks (settled_at) WHERE status <> 'pending' AND final_message_shown = false;
CREATE INDEX asks_settled_at ON asks (settled_at) WHERE status <> 'pending';

-- Library processes renew a lease here while they wait: an ask whose
-- waiting process stopped renewing is expired by whichever instance notices,
-- on any machine (a process id means nothing on another host).
CREATE TABLE instance_leases (
  instance text PRIMARY KEY,
  lease_until bigint NOT NULL
);
