-- Who sent an ask and which operator rule it fell under: `GET /v1/asks`
-- filters on them, and the pending-ask caps count per key without reading
-- any ask's body.
ALTER TABLE asks ADD COLUMN api_key TEXT;
ALTER TABLE asks ADD COLUMN rule TEXT;
CREATE INDEX IF NOT EXISTS asks_by_status_key ON asks (status, api_key);
