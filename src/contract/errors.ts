/**
 * The seam's error taxonomy. Codes are declared once; their union type is
 * derived, so a misspelt code does not compile.
 */
export const USER_INTERACTION_CODES = [
  'ASK_ABORTED',
  'ASK_CANCELLED',
  'ASK_EXPIRED',
  'EMPTY_QUESTIONS',
  'BAD_INTENT',
  'BAD_REQUEST',
  'NO_PROVIDER',
  'DUPLICATE_PROVIDER',
  'SLACK_API_ERROR',
  'POLICY_FORBIDDEN',
] as const

export type UserInteractionCode = (typeof USER_INTERACTION_CODES)[number]

/** The codes as named constants, for callers that prefer `CODES.ASK_ABORTED`. */
export const CODES = Object.fromEntries(USER_INTERACTION_CODES.map((code) => [code, code])) as {
  readonly [K in UserInteractionCode]: K
}

/**
 * Mirrors the harness's `HarnessError`: a tool runtime keeps `{ name, code }`
 * of errors of this shape when it shows a failure to the model.
 */
export class HarnessError extends Error {
  readonly code: string

  constructor(message: string, code: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'HarnessError'
    this.code = code
  }
}

/**
 * Every failure of `ask()`. The constructor takes the code first, typed, so a
 * throw site cannot misspell it; `name` and `code` match the harness's class.
 */
export class UserInteractionError extends HarnessError {
  declare readonly code: UserInteractionCode

  constructor(code: UserInteractionCode, message: string, options?: ErrorOptions) {
    super(message, code, options)
    this.name = 'UserInteractionError'
  }
}

export function isUserInteractionError(value: unknown): value is UserInteractionError {
  return (
    value instanceof Error &&
    value.name === 'UserInteractionError' &&
    typeof (value as { code?: unknown }).code === 'string' &&
    (USER_INTERACTION_CODES as readonly string[]).includes((value as unknown as { code: string }).code)
  )
}
