-- Who is updating an ask's Slack message right now, and until when
-- (several processes on one file never update one message at once).
ALTER TABLE asks ADD COLUMN message_claim TEXT;
ALTER TABLE asks ADD COLUMN message_claim_until INTEGER;
