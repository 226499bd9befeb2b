/**
 * Token-shaped text (bot, user and app-level tokens) anywhere in a log line
 * is replaced before it is written: a Slack SDK error or a misconfigured
 * value must not carry a secret into a log collector.
 */
const TOKEN = /\b(?:xox[abposer]|xapp)-[A-Za-z0-9-]+/g

/**
 * The user and password of a URL (`http://user:pw@host`, `postgres://u:pw@db`),
 * up to the last `@` before a space: a password may itself hold `/` or `@`,
 * and hiding a little too much is better than showing a password.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)\S*@/gi

export function scrubSecrets(line: string): string {
  return line.replace(TOKEN, '[token withheld]').replace(URL_USERINFO, '$1***@')
}
