/**
 * The stand-in's two kinds of failure: `SlackRefusal` is what Slack answers
 * over the wire (`{ ok: false, error }`), `SandboxError` is a test-side failure
 * of the stand-in itself (a payload nobody acknowledged, a button that is not
 * there), with a stable code tests can check.
 */

/** A Web API refusal with Slack's error code and any extra fields Slack sends with it. */
export class SlackRefusal extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error)
    this.name = 'SlackRefusal'
  }
}

export const SANDBOX_ERROR_CODES = [
  /** Nothing is listening: no Socket Mode connection and no HTTP target. */
  'NO_RECEIVER',
  /** The app did not acknowledge within Slack's deadline. */
  'NOT_ACKNOWLEDGED',
  /** The HTTP target answered with a status other than 200 (e.g. Bolt refusing a bad signature). */
  'DELIVERY_REFUSED',
  /** The scripted user could not find what it was told to click, pick or fill. */
  'NOT_FOUND',
  /** What the scripted user was told to do matches more than one control. */
  'AMBIGUOUS',
  /** The app answered with something Slack would refuse (an invalid view, an unknown response_action). */
  'BAD_ACK',
  /** Slack's client would not send this: a required input is empty, or a text is shorter or longer than allowed. */
  'INVALID_INPUT',
  /** A wait ran out before its condition held. */
  'TIMEOUT',
  /** The stand-in is closed. */
  'CLOSED',
  /** The kept workspace file cannot be read back (not JSON, or not a workspace of this version). */
  'BAD_WORKSPACE_FILE',
  /** The port asked for is in use (another stand-in, most likely). */
  'PORT_TAKEN',
] as const

export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[number]

export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'SandboxError'
  }
}
