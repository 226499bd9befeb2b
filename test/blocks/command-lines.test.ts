import { spawnSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commandAsLines } from '../../blocks/command-lines.js'
import { LIMIT } from '../../blocks/limits.js'
import { checkProperty } from '../support/property-runs.js'

const WIDTH = LIMIT.approvalCommandLineWidth

/** The words bash makes of `args` as printf's arguments, one per line between brackets: what the command would receive. */
function bashWords(args: string): string {
  const run = spawnSync('bash', ['--noprofile', '--norc', '-c', `printf '[%s]\\n' ${args}`], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`bash failed on ${JSON.stringify(args)}: ${run.stderr}`)
  return run.stdout
}

describe('a one-line command laid out for a phone', () => {
  it('breaks between words into lines continued with ` \\`, each within the width', () => {
    const laidOut = commandAsLines('pnpm -r run migrate --filter @shop/api -- --to 2026_12_04_add_cache_table', WIDTH)

    expect(laidOut).toBe(['pnpm -r run migrate --filter \\', '  @shop/api -- --to \\', '  2026_12_04_add_cache_table'].join('\n'))
    for (const line of laidOut.split('\n')) expect(line.length).toBeLessThanOrEqual(WIDTH)
  })

  it('leaves a command within the width as it is', () => {
    expect(commandAsLines('make deploy', WIDTH)).toBe('make deploy')
  })

  it('never breaks inside quotes', () => {
    const laidOut = commandAsLines(`git commit -m "a message with a great many words in it" --no-verify`, WIDTH)

    expect(laidOut.split('\n')).toContain('  "a message with a great many words in it" \\')
  })

  it('leaves anything a break could change exactly as written: more than one line, a comment, a here-document, a backslash, substitutions, an open quote', () => {
    const unsafe = [
      'echo one two three four five six seven\necho eight nine ten eleven twelve',
      'rm -rf build dist coverage node_modules # clean everything up now',
      'cat <<EOF > notes.txt and some more words after it all',
      'echo a\\ b c d e f g h i j k l m n o p q r s t u v w',
      'echo $(date +%Y-%m-%d) and then many more words after it',
      'echo ${HOME:-/root} and then many more words after it too',
      'diff <(sort a.txt) <(sort b.txt) plus some more words here',
      'echo `date` and then many more words after it, all of them',
      `echo "an open quote that never closes and goes on and on`,
    ]
    for (const command of unsafe) expect(commandAsLines(command, WIDTH)).toBe(command)
  })

  it('gives bash exactly the words of the line, whatever the words and quotes', () => {
    const bare = fc.stringMatching(/^[A-Za-z0-9_./=:@%+,-]{1,14}$/)
    const quoted = fc.stringMatching(/^[A-Za-z0-9 _./=:@-]{0,20}$/).chain((text) => fc.constantFrom(`'${text}'`, `"${text}"`, `x'${text}'y`))
    const spaces = fc.constantFrom(' ', '  ', '\t', ' \t ')
    const command = fc.array(fc.tuple(fc.oneof(bare, quoted), spaces), { minLength: 2, maxLength: 14 }).map((parts) => parts.map(([word, gap]) => word + gap).join('').trimEnd())

    checkProperty(
      fc.property(command, (line) => {
        const laidOut = commandAsLines(line, WIDTH)
        expect(bashWords(laidOut)).toBe(bashWords(line))
      }),
      { runs: 60, timeLimitMs: 10_000 },
    )
  })
})
