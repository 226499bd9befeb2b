-- Who sent an ask and which operator rule it fell under: `GET /v1/asks`
-- filters on them, and the pending-ask caps count per key without reading
-- any ask's body.
ALTER TABLE asks ADD COLUMN api_key text;
ALTER TABLE asks ADD COLUMN rule text;
CREATE INDEX asks_pending_key ON asks (api_key) WHERE status = 'pending';
