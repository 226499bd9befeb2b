/**
 * The HTTP API's own limits (ARCHITECTURE.md, fixed). The long-poll maximum
 * is a deadline and lives with the others in src/slack/timing.ts.
 */
export const HTTP_LIMIT = {
  /** A request body larger than this is refused with 413 before it is read to the end. */
  maxBodyBytes: 1024 * 1024,
} as const
