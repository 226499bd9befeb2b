-- What the instances learned of a bucket's budget from Slack's 429s (calls
-- a minute; decision 0045): written with the pause a 429 sets, returned by
-- every reservation, so each instance paces to it without another statement.
ALTER TABLE rate_budget ADD COLUMN per_minute double precision;
