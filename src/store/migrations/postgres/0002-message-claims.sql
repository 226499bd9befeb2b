-- Who is updating an ask's Slack message right now, and until when: two
-- instances never update one message at once, so it never goes backwards.
ALTER TABLE asks ADD COLUMN message_claim text;
ALTER TABLE asks ADD COLUMN message_claim_until bigint;
