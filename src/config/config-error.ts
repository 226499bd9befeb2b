/**
 * A setting that stops start-up. `message` is the one line a person sees:
 * the variable, what is wrong with its value, and an example of a good one.
 * It never contains a secret's value.
 */
export class ConfigError extends Error {
  readonly variable: string

  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`)
    this.name = 'ConfigError'
    this.variable = variable
  }
}
