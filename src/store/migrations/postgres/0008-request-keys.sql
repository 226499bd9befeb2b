-- One field, two meanings: `externalKey` in the record named both a relayed
-- request (its answer still to be delivered to the host) and a POST's
-- Idempotency-Key (nothing to deliver). Each now has its own field; the
-- unique external_key column keeps holding whichever the ask has.
UPDATE asks
SET record = (record - 'externalKey') || jsonb_build_object('idempotencyKey', record -> 'externalKey')
WHERE record ->> 'externalKey' LIKE 'http-idempotency:%';
UPDATE asks
SET record = (record - 'externalKey') || jsonb_build_object('relayDelivery', jsonb_build_object('key', record -> 'externalKey'))
WHERE record ? 'externalKey';
