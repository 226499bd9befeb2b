/** A policy file that cannot be used: where, and what is wrong, in one line. */
export class PolicyFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly field: string | undefined,
    readonly problem: string,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${field ? `${field} ` : ''}${problem}`)
    this.name = 'PolicyFileError'
  }
}
