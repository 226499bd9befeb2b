/**
 * Every deadline and delay of the relay, in one place (as src/slack/timing.ts
 * is for Slack). Tests pass shorter ones through `startRelay({ timing })`.
 */
export interface RelayTiming {
  /** First reconnect delay after a drop; doubles per failed attempt. */
  backoffInitialMs: number
  /** The longest wait between two attempts. */
  backoffMaxMs: number
  /**
   * After a (re)connect, how long the host has to replay a pending request
   * before its Slack message is withdrawn as gone. The host replays at once
   * on connect, so a few seconds is generous.
   */
  replayGraceMs: number
  /** The WebSocket upgrade gives up after this long. */
  handshakeTimeoutMs: number
  /** A login or respond call gives up after this long. */
  requestTimeoutMs: number
  /**
   * The host allows 5 failed logins a minute (DSH-HOST.md), then answers 429.
   * After a 429 the next login waits at least this long.
   */
  loginRateWindowMs: number
  /**
   * After the host refused the secret (a configuration error), the next login
   * waits this long: never a burst that locks the person's browser out too.
   */
  wrongSecretRetryMs: number
}

export const RELAY_TIMING: RelayTiming = {
  backoffInitialMs: 500,
  backoffMaxMs: 30_000,
  replayGraceMs: 5_000,
  handshakeTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  loginRateWindowMs: 60_000,
  wrongSecretRetryMs: 10 * 60_000,
}
