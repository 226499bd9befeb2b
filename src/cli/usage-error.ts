/**
 * A wrong flag or argument: the CLI prints its message as one line, with a
 * pointer to `--help`, and exits 2.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}
