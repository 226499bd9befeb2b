-- One field, two meanings: `externalKey` in the record named both a relayed
-- request (its answer still to be delivered to the host) and a POST's
-- Idempotency-Key (nothing to deliver). Each now has its own field; the
-- unique external_key column keeps holding whichever the ask has.
UPDATE asks
SET record = json_set(json_remove(record, '$.externalKey'), '$.idempotencyKey', json_extract(record, '$.externalKey'))
WHERE json_extract(record, '$.externalKey') LIKE 'http-idempotency:%';
UPDATE asks
SET record = json_set(json_remove(record, '$.externalKey'), '$.relayDelivery', json_object('key', json_extract(record, '$.externalKey')))
WHERE json_extract(record, '$.externalKey') IS NOT NULL;
-- Posting is an outbox: the instance that inserts an ask holds the right to
-- post its card until post_claim_until; an ask still unposted once that has
-- run out (its instance died mid-post) is posted by whichever instance sees
-- it next.
ALTER TABLE asks ADD COLUMN post_claim TEXT;
ALTER TABLE asks ADD COLUMN post_claim_until INTEGER;
