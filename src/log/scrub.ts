/**
 * Token-shaped text (bot, user and app-level tokens) anywhere in a log line
 * is replaced before it is written: a Slack SDK error or a misconfigured
 * value must not carry a secret into a log collector.
 */
const TOKEN = /\b(?:xox[abposer]|xapp)-[A-Za-z0-9-]+/g

export function scrubSecrets(line: string): string {
  return line.replace(TOKEN, '[token withheld]')
}
