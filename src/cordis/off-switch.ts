import { UserInteractionError } from '../contract/index.js'

/**
 * The plugin's one way out: whatever goes wrong, at start or later (a
 * revoked token, Slack unreachable, the store gone, a bug), dsh-slack turns
 * off instead of failing the harness's run. It says why once, on stderr,
 * and from then on the harness's questions get NO_PROVIDER and its tool
 * approvals `unavailable`, so the harness fails closed as it does with no
 * plugin at all.
 */
export class OffSwitch {
  #reason: string | undefined

  /**
   * @param say writes the one `off: …` line.
   * @param onOff runs once, when turned off (unregisters the provider).
   */
  constructor(
    private readonly say: (line: string) => void,
    private readonly onOff: () => void,
  ) {}

  get isOff(): boolean {
    return this.#reason !== undefined
  }

  /** Turns the plugin off and says why; only the first reason is said. */
  turnOff(reason: string): void {
    if (this.#reason !== undefined) return
    this.#reason = reason
    try {
      this.onOff()
    } finally {
      this.say(`off: ${reason}`)
    }
  }

  /**
   * What an ask gets once the plugin is off: the code the harness gives
   * with no provider at all. The reason stays on stderr: it is the
   * operator's to read, not the model's.
   */
  noProvider(): UserInteractionError {
    return new UserInteractionError('NO_PROVIDER', 'no user-questions provider is registered (dsh-slack is off: its line on stderr says why)')
  }
}

/** An error as one line of text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
