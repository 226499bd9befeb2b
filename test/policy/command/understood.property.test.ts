import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CommandPart } from '../../../src/policy/command/normalise-command.js'
import { parseCommand } from '../../../src/policy/command/parse-command.js'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'
import { matchRule } from '../../../src/policy/match-rule.js'
import type { AskFacts } from '../../../src/policy/operator-policy.js'
import { parsePolicy } from '../../../src/policy/policy-file.js'
import { atLeastAsStrict } from '../../../src/policy/strictness.js'
import { checkProperty } from '../../support/property-runs.js'
import { policyHolding } from './evasions.js'
import { randomPolicy } from './random-policies.js'

// Issue 48: random command lines from a grammar of understood commands,
// runners, builtins and git configuration, composed and nested as a shell
// allows. Each piece is labelled here, by hand, as understood or not (the
// oracle), independently of the list in understood.ts. A command line is
// under a looser rule only if every piece of it is understood; one whose
// pieces all are keeps every part understood, and the parts are what a
// real bash runs (checked with stub programs that record their argv).

beforeAll(() => loadShellParser())

interface Piece {
  text: string
  understood: boolean
  /** An understood git push that forces, mirrors, deletes or pushes a +refspec (the docs' force-push rule). */
  forces?: boolean
}

const understood = (text: string, forces = false): Piece => ({ text, understood: true, ...(forces ? { forces } : {}) })
const notUnderstood = (text: string): Piece => ({ text, understood: false })

const UNDERSTOOD: Piece[] = [
  understood('git status'),
  understood('git status --short'),
  understood('git log --oneline -3'),
  understood('git diff --stat'),
  understood('git -C sub status'),
  understood('git add -A'),
  understood('git commit -m msg'),
  understood('git fetch origin'),
  understood('git push origin main'),
  understood('git push -u origin main'),
  understood('git push -f origin main', true),
  understood('git push --force origin main', true),
  understood('git push origin +main', true),
  understood('git push --mirror origin', true),
  understood('ls'),
  understood('ls -la'),
  understood('cat x.txt'),
  understood('echo hi'),
  understood('printf "%s\\n" x'),
  understood('grep -n foo x.txt'),
  understood('wc -l x.txt'),
  understood('head -3 x.txt'),
  understood('sort x.txt'),
  understood('sed -n 1,5p x.txt'),
  understood('find . -name "*.ts" -type f'),
  understood('rm -rf build'),
  understood('rm -rf /'),
  understood('mkdir -p out'),
  understood('npm test'),
  understood('npm run build'),
  understood('pnpm -r run build'),
  understood('make all'),
  understood('CI=1 npm test'),
  understood('env CI=1 npm test'),
  understood('timeout 5 git status'),
  understood('true'),
  understood('cd sub'),
]

const NOT_UNDERSTOOD: Piece[] = [
  // runners
  notUnderstood('find . -exec git push -f origin main ";"'),
  notUnderstood('find / -delete'),
  notUnderstood('ssh host git push -f origin main'),
  notUnderstood('python3 -c "print(1)"'),
  notUnderstood('awk "BEGIN { system(\\"ls\\") }"'),
  notUnderstood('perl -e 1'),
  notUnderstood('watch ls'),
  notUnderstood('parallel ls ::: a'),
  notUnderstood('flock /tmp/l git push'),
  notUnderstood('ionice -c 3 git push'),
  notUnderstood('timeout 5 python3 x.py'),
  notUnderstood('sudo -u root chrt 0 ls'),
  notUnderstood('busybox sh -c ls'),
  notUnderstood('fish -c ls'),
  notUnderstood('npx vitest'),
  notUnderstood('node x.js'),
  notUnderstood('bash ./x.sh'),
  notUnderstood('sh x.sh'),
  notUnderstood('echo ls | bash'),
  notUnderstood('echo x | xargs git'),
  // builtins that defer, import or change later commands
  notUnderstood('trap "git push -f" EXIT'),
  notUnderstood('coproc git push'),
  notUnderstood('source x.sh'),
  notUnderstood('. x.sh'),
  notUnderstood('alias ll="ls -l"'),
  notUnderstood('shopt -s expand_aliases'),
  notUnderstood('eval "$X"'),
  notUnderstood('hash -r'),
  notUnderstood('read x'),
  notUnderstood('let x=1'),
  notUnderstood('pushd /tmp'),
  notUnderstood('set -k'),
  // git configuration, and what can change what git does
  notUnderstood('git config alias.p push'),
  notUnderstood('git p origin'),
  notUnderstood('git -c remote.origin.mirror=true push origin'),
  notUnderstood('git --git-dir=/tmp/x push'),
  notUnderstood('GIT_DIR=/tmp/x git status'),
  notUnderstood('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true git push'),
  notUnderstood('export GIT_CONFIG_PARAMETERS=x'),
  notUnderstood('PATH=/tmp/bin:$PATH git status'),
  notUnderstood('git submodule foreach ls'),
  notUnderstood('git send-pack --force origin'),
  notUnderstood('git rebase -x ls main'),
  notUnderstood('git push --receive-pack=x origin'),
  notUnderstood('echo x > .git/config'),
  // what cannot be known
  notUnderstood('./git status'),
  notUnderstood('$X status'),
  notUnderstood('echo x > "$f"'),
  notUnderstood('echo $((y))'),
]

/** How a piece is placed in the command line: as it is, or inside a construct that runs it. */
const SHAPES = ['bare', 'subshell', 'braces', 'bash -c', 'substitution', 'if', 'for', 'redirected inside', 'negated', 'here-string'] as const
type Shape = (typeof SHAPES)[number]

function shaped(text: string, shape: Shape): string {
  switch (shape) {
    case 'bare':
      return text
    case 'subshell':
      return `( ${text} )`
    case 'braces':
      return `{ ${text}; }`
    case 'bash -c':
      return `bash -c '${text.replace(/'/g, `'\\''`)}'`
    case 'substitution':
      return `echo "$(${text})"`
    case 'if':
      return `if true; then ${text}; fi`
    case 'for':
      return `for item in a; do ${text}; done`
    // tree-sitter reads the words after a redirection as its targets; bash passes them to the command.
    // (Not after an assignment: in a pipeline tree-sitter reads `CI=1 2>/dev/null npm test` as an assignment and a redirection, which is refused, failing closed.)
    case 'redirected inside':
      return /^[A-Z_]+=/.test(text) ? text : text.replace(' ', ' 2>/dev/null ')
    case 'negated':
      return `! ${text}`
    case 'here-string':
      return `${text} <<< input`
  }
}

const placed = fc.record({ piece: fc.constantFrom(...UNDERSTOOD, ...NOT_UNDERSTOOD), shape: fc.constantFrom(...SHAPES) })
const line = fc.array(fc.tuple(placed, fc.constantFrom(' ; ', ' && ', ' || ', ' | ', '\n')), { minLength: 1, maxLength: 4 })
/** Mostly understood pieces: the lines a real bash is asked to run. */
const understoodLine = fc.array(fc.tuple(fc.record({ piece: fc.constantFrom(...UNDERSTOOD), shape: fc.constantFrom(...SHAPES) }), fc.constantFrom(' ; ', ' && ', ' || ', '\n')), { minLength: 1, maxLength: 4 })

type Line = [{ piece: Piece; shape: Shape }, string][]
const render = (pieces: Line) => pieces.map(([{ piece, shape }, join], index) => `${shaped(piece.text, shape)}${index < pieces.length - 1 ? join : ''}`).join('')

const bash = (command: string): AskFacts => ({ kind: 'tool-approval', tool: 'bash', command })
const docs = parsePolicy(policyHolding('force-push').text, 'policy.yml')

describe('a command is under a looser rule only if every part is understood', () => {
  it('holds a line with any piece not understood to the strictest rule, and keeps a line of understood pieces understood', () => {
    checkProperty(
      fc.property(randomPolicy, line, (operator, pieces) => {
        const command = render(pieces)
        const all = pieces.every(([{ piece }]) => piece.understood)
        const { parts } = parseCommand(command)

        if (all) {
          // Every part understood; under the docs, force-push exactly when a piece forces.
          expect(parts.map((part) => part.unknown)).toEqual(parts.map(() => undefined))
          expect(matchRule(docs, bash(command)).name).toBe(pieces.some(([{ piece }]) => piece.forces) ? 'force-push' : 'defaults')
        } else {
          expect(parts.some((part) => part.unknown !== undefined)).toBe(true)
          expect(matchRule(docs, bash(command)).name).toBe('force-push')
          // Under any rules: never provably looser than a command that is not known at all.
          const strictest = matchRule(operator, { kind: 'tool-approval', tool: 'bash' })
          const rule = matchRule(operator, bash(command))
          expect(atLeastAsStrict(strictest, rule) && !atLeastAsStrict(rule, strictest)).toBe(false)
        }
      }),
      { runs: 400, timeLimitMs: 8000 },
    )
  })
})

// The differential half: a real bash runs the understood lines with every
// program a stub that records its argv; each run must be a part.

const stubs = mkdtempSync(join(tmpdir(), 'dsh-slack-stubs-'))
const work = mkdtempSync(join(tmpdir(), 'dsh-slack-stub-work-'))
const log = join(work, 'runs.log')
const STUBBED = ['git', 'ls', 'cat', 'grep', 'wc', 'head', 'sort', 'sed', 'find', 'rm', 'mkdir', 'npm', 'pnpm', 'make']

beforeAll(() => {
  for (const program of STUBBED) {
    const path = join(stubs, program)
    writeFileSync(path, `#!/usr/bin/bash\n{ printf '%s' "\${0##*/}"; for word in "$@"; do printf '\\x1f%s' "$word"; done; printf '\\x1e'; } >> "$DSH_STUB_LOG"\n`)
    chmodSync(path, 0o755)
  }
  // Real ones: the shells and wrappers the lines are read through run the stubs.
  for (const real of ['bash', 'env', 'timeout']) symlinkSync(`/usr/bin/${real}`, join(stubs, real))
  mkdirSync(join(work, 'sub'))
  writeFileSync(join(work, 'x.txt'), 'x\n')
})
afterAll(() => {
  rmSync(stubs, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

/** Every program bash ran for `command`, as argv. */
function ran(command: string): string[][] {
  writeFileSync(log, '')
  try {
    execFileSync('/usr/bin/bash', ['-c', command], { cwd: work, env: { PATH: stubs, DSH_STUB_LOG: log }, stdio: 'ignore', timeout: 5000 })
  } catch {
    // A command that fails (`true || …`, a stub's empty output) still ran what it ran.
  }
  return readFileSync(log, 'utf8').split('\x1e').filter((record) => record !== '').map((record) => record.split('\x1f'))
}

/** Whether argv is what a part says runs: its program, git's own options aside, and its words (an unknown one matches any). */
function isRunOf(argv: string[], part: CommandPart): boolean {
  const [program, ...words] = argv
  if (program !== part.program) return false
  let rest = words
  if (program === 'git') while (rest[0] === '-C' || rest[0] === '--no-pager') rest = rest.slice(rest[0] === '-C' ? 2 : 1)
  const matches = (at: number, from: number): boolean => {
    if (at === part.written.length) return from === rest.length
    if (part.written[at] === undefined) return Array.from({ length: rest.length - from + 1 }, (_, skip) => skip).some((skip) => matches(at + 1, from + skip))
    return rest[from] === part.written[at] && matches(at + 1, from + 1)
  }
  return matches(0, 0)
}

describe('the parts of an understood command are what bash runs', () => {
  it('finds every program a real bash runs among the parts', () => {
    checkProperty(
      fc.property(understoodLine, (pieces) => {
        const command = render(pieces)
        const { parts } = parseCommand(command)
        // A part not understood fails closed: only a reading that claims to understand must be exact.
        if (parts.some((part) => part.unknown !== undefined)) return

        for (const argv of ran(command)) expect(parts.some((part) => isRunOf(argv, part)), `${JSON.stringify(argv)} ran, but the parts of ${JSON.stringify(command)} are ${JSON.stringify(parts.map((part) => [part.program, ...part.written]))}`).toBe(true)
      }),
      { runs: 150, timeLimitMs: 8000 },
    )
  })

  it.each([
    ['git >/dev/null push -f origin main', ['git', 'push', '-f', 'origin', 'main']],
    ['git push -f 2>&1 origin main', ['git', 'push', '-f', 'origin', 'main']],
    ['git push \\\n  -f origin main', ['git', 'push', '-f', 'origin', 'main']],
    ['git push origin 3>&- +main', ['git', 'push', 'origin', '+main']],
    ['git push <<< x -f 2>/dev/null origin', ['git', 'push', '-f', 'origin']],
    ['>/dev/null 2>&1 git push -f origin', ['git', 'push', '-f', 'origin']],
  ])('reads %j as bash runs it', (command, argv) => {
    expect(ran(command)).toEqual([argv])
    expect(parseCommand(command).parts.some((part) => part.unknown === undefined && isRunOf(argv, part))).toBe(true)
  })
})
