/**
 * Exit codes of the CLI (ARCHITECTURE.md, fixed for `ask`). `interrupted`
 * follows the shell convention 128 + SIGINT, so a script can tell "the
 * person pressed Ctrl-C" from a failure; both are non-zero for `set -e`.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  /** An invalid request, flag or setting. */
  invalid: 2,
  /** The person dismissed the question in Slack. */
  cancelled: 3,
  /** Nobody answered before the question expired. */
  expired: 4,
  /** Ctrl-C: the question was withdrawn. */
  interrupted: 130,
} as const
