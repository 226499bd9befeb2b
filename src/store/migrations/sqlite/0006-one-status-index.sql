-- asks_by_status_key (status, api_key) answers every query on status alone
-- as well: the older index on status only was a second page written by
-- every insert and every settle, and read by nothing.
DROP INDEX IF EXISTS asks_by_status;
