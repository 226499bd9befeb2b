-- Who has the app's Home tab open (any instance refreshes it when an ask
-- opens or settles), and which instance is publishing a person's tab now:
-- one at a time, and `stale` makes the holder publish once more when
-- another instance wanted to meanwhile.
CREATE TABLE home_viewers (
  user_id text PRIMARY KEY,
  opened_at bigint NOT NULL,
  claim text,
  claim_until bigint,
  stale boolean NOT NULL DEFAULT false
);
CREATE INDEX home_viewers_by_opened ON home_viewers (opened_at);
