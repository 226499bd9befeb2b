import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_SHELL_DEPTH, parseCommand, partText } from '../../../src/policy/command/parse-command.js'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'

beforeAll(() => loadShellParser())

/** Each simple command as a rule sees it, or `unknown: …` when it is not understood. */
function parts(command: string): string[] {
  return parseCommand(command).parts.map((part) => (part.unknown !== undefined ? `unknown: ${part.unknown}` : `${partText(part)}${part.openEnded ? ' …' : ''}`))
}

/** Each simple command as a rule sees it, understood or not. */
function words(command: string): string[] {
  return parseCommand(command).parts.map((part) => `${partText(part)}${part.openEnded ? ' …' : ''}`)
}

describe('parseCommand', () => {
  it.each([
    ['git status; git push --force origin main', ['git status', 'git push --force origin main']],
    ['ls && cat || echo | wc & pwd', ['ls', 'cat', 'echo', 'wc', 'pwd']],
    ['(cd x; git push -f) && { ls; }', ['cd x', 'git push -f', 'ls']],
    ['if true; then git push -f; fi', ['true', 'git push -f']],
    ['for b in a; do git push -f; done', ['git push -f']],
    ['f() { git push -f; }', ['git push -f']],
    ['ls\npwd', ['ls', 'pwd']],
  ])('splits %j into the simple commands it runs', (command, expected) => {
    expect(parts(command)).toEqual(expected)
  })

  it.each([
    ['git  push\t--force   origin main', 'git push --force origin main'],
    ['  git push -f', 'git push -f'],
    ['"git" \'push\' "--force"', 'git push --force'],
    ['g"i"t pu\\sh --for\'ce\'', 'git push --force'],
    ["$'git' push $'--forc\\x65'", 'git push --force'],
    ['git push -uf origin main', 'git push -u -f origin main'],
    ['git -C . --no-pager push -f', 'git push -f'],
    ['/usr/bin/git push -f', 'git push -f'],
    ['CI=1 LANG="C.UTF-8" git push -f', 'git push -f'],
    ['command git push -f', 'git push -f'],
    ['sudo -u root -E env CI=1 nice -n 5 nohup time -p timeout 5 git push -f', 'git push -f'],
    ['exec -a name git push -f', 'git push -f'],
    ['nice -10 git push -f', 'git push -f'],
    ['git commit -m "a; b"', 'git commit -m a; b'],
    ['rm -rf -- -f', 'rm -r -f -- -f'],
  ])('normalises %j to %j', (command, expected) => {
    expect(parts(command)).toEqual([expected])
  })

  it.each([
    ["bash -c 'git push -f'", ['git push -f']],
    ["sh -lc 'cd x && git push -f'", ['cd x', 'git push -f']],
    ['eval "git push -f"', ['git push -f']],
    ["env -S 'git push -f'", ['git push -f']],
    ['bash -o pipefail -c "git push -f"', ['git push -f']],
  ])('parses what %j hands to a shell', (command, expected) => {
    expect(parts(command)).toEqual(expected)
  })

  it('follows nested shells up to its depth, and no deeper', () => {
    const nested = (depth: number): string => (depth === 0 ? 'git push -f' : `bash -c ${JSON.stringify(nested(depth - 1)).replace(/\$/g, '\\$')}`)

    expect(parts(nested(MAX_SHELL_DEPTH))).toEqual(['git push -f'])
    expect(parts(nested(MAX_SHELL_DEPTH + 1))[0]).toMatch(/^unknown: it nests shells deeper than 3 levels/)
  })

  it('runs what a command or process substitution holds, and cannot know the word it makes', () => {
    expect(parts('echo $(rm -rf ~) | cat <(ls)')).toEqual(['echo ?', 'rm -r -f ~', 'cat ?', 'ls'])
    expect(words('git push "$(echo --force)" origin')).toEqual(['git push ? origin', 'echo --force'])
  })

  it.each([
    ['$X push -f', /program is only known when it runs/],
    ['$(which git) push -f', /program is only known when it runs/],
    ['gi? push -f', /program is only known when it runs/],
    ['eval "$X"', /eval is given words only known when it runs/],
    ['bash -c "$X"', /bash -c is given a command line only known/],
    ['echo "git push -f" | bash', /reads the commands it runs from its input/],
    ["git -c alias.p='push -f' p origin", /git -c sets configuration, which can change what any git command does/],
    ['sudo --weird git push -f', /sudo --weird is not an option of sudo dsh-slack understands/],
    ["git push 'unterminated", /the shell parser could not read it/],
    ['# only a comment', /holds no command/],
  ])('cannot know %j before it runs', (command, why) => {
    expect(parts(command).some((part) => why.test(part))).toBe(true)
  })

  it('keeps words only known at run time unknown, and xargs open-ended', () => {
    expect(words('git push $F origin')).toEqual(['git push ? origin'])
    expect(words('git push origin {main,+main}')).toEqual(['git push origin ?'])
    expect(words('echo main | xargs git push origin')).toEqual(['echo main', 'git push origin …'])
    expect(parts('git status $F; echo main | xargs grep -n')).toEqual(['git status ?', 'echo main', 'grep -n …'])
  })
})
