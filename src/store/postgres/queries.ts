/**
 * Every statement the PostgreSQL store runs, in one place. Parameters are
 * always bound ($1…), never spliced in. The record column is the AskStore
 * record as JSON; the other columns mirror the fields that are queried.
 */

/** The channel settlements are announced on (per database, so per deployment). */
export const SETTLED_CHANNEL = 'dsh_slack_settled'

/** The channel new asks with an expiry are announced on, as `<id> <expiresAt>`: every instance arms the timer, and the settle claim lets one fire. */
export const INSERTED_CHANNEL = 'dsh_slack_inserted'

/** The channel Home tab openings are announced on, as `<user> <openedAt>` (PostgresHomeViewers follows them). */
export const HOME_CHANNEL = 'dsh_slack_home'

/**
 * NOTIFY payloads are capped at 8000 bytes (and a longer one fails the
 * statement that sends it), so a record that fits travels whole and saves
 * the listener a read; a longer one sends its id, which never starts with `{`.
 */
export const NOTIFY_RECORD_MAX_BYTES = 7900

/** Serialises migrations of one database across every instance starting at once. */
export const MIGRATION_LOCK_KEY = 0x64_73_68_31 // 'dsh1'

export const SQL = {
  createMigrationsTable: `CREATE TABLE IF NOT EXISTS dsh_slack_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`,
  lockMigrations: `SELECT pg_advisory_xact_lock($1)`,
  appliedVersions: `SELECT version FROM dsh_slack_migrations ORDER BY version`,
  recordMigration: `INSERT INTO dsh_slack_migrations (version, name) VALUES ($1, $2)`,

  /**
   * The ask, announced when it has an expiry ($7), within the caps on
   * pending asks ($10 in all, $11 for its API key $8; nulls: none), with
   * the right to post its card ($12 until $13, or nulls): no row
   * back means a cap was reached. Two instances inserting at once may each
   * count the other's ask as not there yet, so a cap can be passed by a few.
   */
  insert: `WITH inserted AS (
             INSERT INTO asks (id, status, external_key, owner_instance, created_at, record, api_key, rule, post_claim, post_claim_until)
             SELECT $1, $2, $3, $4, $5, $6::jsonb, $8::text, $9, $12, $13
             WHERE $10::integer IS NULL
                OR ((SELECT count(*) FROM asks WHERE status = 'pending') < $10::integer
                    AND ($8::text IS NULL OR (SELECT count(*) FROM asks WHERE status = 'pending' AND api_key = $8::text) < $11::integer))
             RETURNING id
           ), announced AS (
             SELECT pg_notify('${INSERTED_CHANNEL}', id || ' ' || $7::bigint) FROM inserted WHERE $7::bigint IS NOT NULL
           )
           SELECT id, (SELECT count(*) FROM announced) AS announced FROM inserted`,
  get: `SELECT record FROM asks WHERE id = $1`,
  byExternalKey: `SELECT record FROM asks WHERE external_key = $1`,
  /** The door as doorOf reads it ($3: the key's name in api_key; $4: the host's prefix of a relayed request's key). */
  newestOfAgent: `SELECT record FROM asks WHERE record->'agent'->>'id' = $1 AND api_key IS NOT DISTINCT FROM $3::text
                    AND CASE WHEN $4::text IS NULL THEN record->'relayDelivery'->>'key' IS NULL
                             ELSE left(record->'relayDelivery'->>'key', length($4::text)) = $4::text END
                  ORDER BY created_at DESC, id DESC LIMIT $2`,
  /**
   * Where the message is, and its `posted` event ($3, $4: at and event, or
   * nulls) in the same statement. The record comes back only when the
   * caller's copy ($5: it has one; $6: its approval arguments) cannot stand
   * for it (settled meanwhile, or arguments arrived); null: it is that copy
   * with the message (decision 0079).
   */
  attachMessage: `WITH attached AS (
                    UPDATE asks SET record = jsonb_set(record, '{message}', $2::jsonb), post_claim = NULL, post_claim_until = NULL WHERE id = $1
                    RETURNING id, status, record
                  ), logged AS (
                    INSERT INTO events (ask_id, at, event) SELECT id, $3, $4::jsonb FROM attached WHERE $4::jsonb IS NOT NULL
                  )
                  SELECT CASE WHEN $5::boolean AND status = 'pending' AND record #>> '{approval,arguments}' IS NOT DISTINCT FROM $6::text THEN NULL ELSE record END AS record
                  FROM attached`,
  attachApprovalArguments: `UPDATE asks SET record = jsonb_set(record, '{approval,arguments}', to_jsonb($2::text))
                            WHERE id = $1 AND status = 'pending' AND record ? 'approval'`,
  /**
   * The atomic claim: only a pending row matches, and PostgreSQL re-checks
   * the condition on the latest row version when two updates race, so one
   * wins. The notify goes out when the statement commits, never before.
   * The winner's other writes ride along: its jobs are dropped, its event
   * ($5 at $8, or nulls) appended, and the message's claim ($6 until $7, or
   * nulls) taken if the message is recorded (SET reads the row as it was),
   * so a click settles in one round trip to the database.
   */
  settle: `WITH settled AS (
             UPDATE asks
             SET status = $2, settled_at = $3, final_message_shown = false,
                 record = record || jsonb_build_object('status', $2::text, 'settlement', $4::jsonb, 'finalMessageShown', false),
                 message_claim = CASE WHEN $6::text IS NULL OR NOT record ? 'message' THEN message_claim ELSE $6 END,
                 message_claim_until = CASE WHEN $6::text IS NULL OR NOT record ? 'message' THEN message_claim_until ELSE $7 END
             WHERE id = $1 AND status = 'pending'
             RETURNING id, record
           ), dropped AS (
             DELETE FROM jobs WHERE ask_id IN (SELECT id FROM settled)
           ), logged AS (
             INSERT INTO events (ask_id, at, event) SELECT id, $8, $5::jsonb FROM settled WHERE $5::jsonb IS NOT NULL
           )
           SELECT record, pg_notify('${SETTLED_CHANNEL}',
             CASE WHEN octet_length(record::text) <= ${NOTIFY_RECORD_MAX_BYTES} THEN record::text ELSE id END)
           FROM settled`,
  markShown: `UPDATE asks SET final_message_shown = true, record = jsonb_set(record, '{finalMessageShown}', 'true') WHERE id = $1`,
  claimMessage: `UPDATE asks SET message_claim = $2, message_claim_until = $4
                 WHERE id = $1 AND (message_claim IS NULL OR message_claim = $2 OR message_claim_until < $3)`,
  /**
   * The post claim ($2 until $4, at $3), only while the card is unposted and
   * the ask open; when another holder has it, when that runs out. (The outer
   * SELECT reads the row as it was before the update.)
   */
  claimPost: `WITH taken AS (
                UPDATE asks SET post_claim = $2, post_claim_until = $4
                WHERE id = $1 AND status = 'pending' AND NOT record ? 'message'
                  AND (post_claim IS NULL OR post_claim = $2 OR post_claim_until < $3)
                RETURNING id
              )
              SELECT (SELECT count(*) FROM taken)::int AS taken, post_claim_until AS until
              FROM asks WHERE id = $1 AND status = 'pending' AND NOT record ? 'message'`,
  releaseMessage: `UPDATE asks SET message_claim = NULL, message_claim_until = NULL,
                     final_message_shown = final_message_shown OR $3,
                     record = CASE WHEN $3 THEN jsonb_set(record, '{finalMessageShown}', 'true') ELSE record END
                   WHERE id = $1 AND message_claim = $2`,
  pending: `SELECT record FROM asks WHERE status = 'pending' ORDER BY created_at, id`,
  pendingSummaries: `SELECT id, created_at, record->'owner' AS owner, (record->>'expiresAt')::bigint AS expires_at, record->'message' AS message, record->'policy' AS policy
                     FROM asks WHERE status = 'pending' ORDER BY created_at, id`,
  /**
   * What the lease sweep may act on ($1: now, $2: arm the expiries due by
   * then), each part on a partial index of migration 0009: a library
   * process's asks, the expiries coming up, the unposted asks whose claim
   * ran out (only an unposted ask holds a claim: recording the card clears it).
   */
  sweepable: `SELECT id, created_at, record->'owner' AS owner, (record->>'expiresAt')::bigint AS expires_at, record->'message' AS message, record->'policy' AS policy
              FROM asks WHERE status = 'pending' AND owner_instance IS NOT NULL
              UNION
              SELECT id, created_at, record->'owner', (record->>'expiresAt')::bigint, record->'message', record->'policy'
              FROM asks WHERE status = 'pending' AND record ? 'expiresAt' AND (record->>'expiresAt')::bigint <= $2
              UNION
              SELECT id, created_at, record->'owner', (record->>'expiresAt')::bigint, record->'message', record->'policy'
              FROM asks WHERE status = 'pending' AND post_claim_until IS NOT NULL AND post_claim_until <= $1`,
  unshown: `SELECT record FROM asks
            WHERE status <> 'pending' AND final_message_shown = false AND record ? 'message'
            ORDER BY settled_at, id`,
  settledAmong: `SELECT record FROM asks WHERE id = ANY($1::text[]) AND status <> 'pending'`,
  pendingAmong: `SELECT record FROM asks WHERE id = ANY($1::text[]) AND status = 'pending'`,
  prune: `DELETE FROM asks WHERE status <> 'pending' AND settled_at < $1`,
  renewLease: `INSERT INTO instance_leases (instance, lease_until) VALUES ($1, $2)
               ON CONFLICT (instance) DO UPDATE SET lease_until = GREATEST(instance_leases.lease_until, EXCLUDED.lease_until)`,
  leaseUntil: `SELECT lease_until FROM instance_leases WHERE instance = $1`,
  endLease: `DELETE FROM instance_leases WHERE instance = $1`,
  pruneLeases: `DELETE FROM instance_leases WHERE lease_until < $1`,
} as const
