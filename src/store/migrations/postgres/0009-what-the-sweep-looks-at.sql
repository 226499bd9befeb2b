-- Issue 52 (decision 0104): the lease sweep finds what it may act on by index,
-- instead of reading every pending ask every few seconds on every instance.
-- Only an unposted ask holds a post claim now (recording its card clears it): a posted one gives it up here,
-- and an unposted one without a claim gets one that has run out, so the sweep posts it as before.
UPDATE asks SET post_claim = NULL, post_claim_until = NULL WHERE record ? 'message';
UPDATE asks SET post_claim_until = 0 WHERE status = 'pending' AND post_claim_until IS NULL AND NOT record ? 'message';
CREATE INDEX asks_pending_expiry ON asks (((record->>'expiresAt')::bigint)) WHERE status = 'pending' AND record ? 'expiresAt';
CREATE INDEX asks_pending_unposted ON asks (post_claim_until) WHERE status = 'pending' AND post_claim_until IS NOT NULL;
-- A library process's asks (its process may be gone); a service's are the service's own.
CREATE INDEX asks_pending_library ON asks (owner_instance) WHERE status = 'pending' AND owner_instance IS NOT NULL;
