import { whyNotListed } from './not-listed.js'
import { anyArguments, beforeDashes, withoutOptions, writesKnownFiles, type Reading, type Words } from './read-arguments.js'
import { findReading, makeReading, packageManager, printfReading, readCd, sedReading, setReading } from './read-programs.js'
import type { WrapperSpec } from './wrappers.js'

/**
 * What dsh-slack positively understands in a command line (issue 48,
 * decision 0085). A looser rule, or the defaults when a stricter command
 * rule exists, applies to a command only when every simple command in it is
 * understood: its program is listed here, known not to run its arguments nor
 * to change what a later command does, and its arguments are read by the
 * program's own reading. Anything else (a program not listed, a runner, a
 * builtin that defers or imports commands, a variable not listed, git
 * configuration) is *not understood*, and falls to the strictest rule that
 * could apply. Adding an entry makes rules looser for it: each entry says
 * what was checked.
 *
 * What a repository's own files say (package.json scripts, a Makefile, git
 * hooks and `.git/config`) is the repository's: `npm test` is understood,
 * whatever its script runs. A command line that names git's own files is
 * not (the reader refuses it), so a command cannot rewrite them and push in
 * one approval.
 */
export interface UnderstoodProgram {
  /** Reads its words; `undefined` when they are understood, else why not. */
  read: Reading
  /**
   * Its operands are file paths: a rule matching them sees an absolute path
   * normalised, and a relative path with `..`, or any relative path in a
   * command line that changes directory, as a word only known when it runs.
   */
  paths?: boolean
}

const understoodAsIs: UnderstoodProgram = { read: anyArguments }
const pathsAsIs: UnderstoodProgram = { read: anyArguments, paths: true }

/** find's tests and actions that neither run, delete nor write: each with the number of words it takes (read-programs.ts reads the rest). */
const FIND_PRIMARIES: Readonly<Record<string, number>> = {
  ...Object.fromEntries(['-print', '-print0', '-ls', '-prune', '-quit', '-true', '-false', '-depth', '-follow', '-xdev', '-mount', '-noleaf', '-daystart', '-empty', '-readable', '-writable', '-executable', '-nouser', '-nogroup', '-ignore_readdir_race', '-noignore_readdir_race', '-warn', '-nowarn', '-not', '-a', '-and', '-o', '-or', '!', '(', ')', ','].map((primary) => [primary, 0])),
  ...Object.fromEntries(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-regextype', '-type', '-xtype', '-maxdepth', '-mindepth', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-used', '-size', '-user', '-group', '-uid', '-gid', '-perm', '-links', '-inum', '-samefile', '-lname', '-ilname', '-fstype', '-printf'].map((primary) => [primary, 1])),
}

/** sed's options without a value (short ones may be bundled: `-nE`). */
const SED_FLAGS = new Set(['-n', '--quiet', '--silent', '-E', '-r', '--regexp-extended', '-s', '--separate', '-z', '--null-data', '-u', '--unbuffered', '--posix', '--debug', '--follow-symlinks', '--sandbox'])

/** The shell options `set` may turn on or off: exit on error, unset variables, tracing, pipefail. */
const SET_LETTERS = /^[-+][euxv]+$/
const SET_OPTION_NAMES = new Set(['errexit', 'nounset', 'xtrace', 'verbose', 'pipefail'])

/** make's options: none names another makefile (`-f`) or evaluates text (`--eval`). */
const MAKE_OPTIONS = { flags: ['-k', '--keep-going', '-s', '--silent', '--quiet', '-n', '--dry-run', '--just-print', '--recon', '-B', '--always-make', '-w', '--print-directory', '--no-print-directory', '-q', '--question', '-j'], valued: ['-C', '--directory'] }

const TEST_SCRIPT = { test: 'none', t: 'none', tst: 'none', start: 'none' } as const
const RUN_SCRIPT = { run: 'script', 'run-script': 'script' } as const

const NPM = packageManager('npm', {
  options: {
    flags: ['--if-present', '--silent', '-s', '--quiet', '-q', '--workspaces', '-ws', '--ignore-scripts', '--no-audit', '--no-fund', '--json', '--long', '-l', '--all', '-a', '--legacy-peer-deps', '--prefer-offline', '--offline', '--include-workspace-root', '--verbose', '--version', '-v', '--parseable'],
    valued: ['-w', '--workspace', '--loglevel', '--depth', '--omit', '--include'],
  },
  commands: { ...TEST_SCRIPT, ...RUN_SCRIPT, rum: 'script', urn: 'script', ci: 'none', 'clean-install': 'none', install: 'none', i: 'none', ls: 'names', list: 'names', outdated: 'names', view: 'names', info: 'names', show: 'names', why: 'names', explain: 'names', audit: 'none', root: 'none', prefix: 'none' },
})

const PNPM = packageManager('pnpm', {
  options: {
    flags: ['-r', '--recursive', '--parallel', '--stream', '--if-present', '--silent', '-s', '--frozen-lockfile', '--prefer-offline', '--offline', '-w', '--workspace-root', '--aggregate-output', '--no-bail', '--sequential', '--version', '-v'],
    valued: ['--filter', '-F', '-C', '--dir', '--reporter', '--workspace-concurrency'],
  },
  commands: { ...TEST_SCRIPT, ...RUN_SCRIPT, install: 'none', i: 'none', ls: 'names', list: 'names', outdated: 'names', why: 'names' },
})

const YARN = packageManager('yarn', {
  options: { flags: ['--frozen-lockfile', '--immutable', '--silent', '-s', '--prefer-offline', '--offline', '--version', '-v'], valued: [] },
  commands: { ...TEST_SCRIPT, run: 'script', install: 'none' },
  bare: true,
})

/** What a git subcommand may be given: every option but those named, which run a program (or a strategy's program). */
const gitWithout = (subcommand: string, dangers: Readonly<Record<string, string>>) => withoutOptions(`git ${subcommand}`, dangers)

const RUNS_ON_REMOTE_SIDE = 'names the program to run for the other side, which for a local repository runs here'

/**
 * git log, show and diff: every option; `--output=FILE` writes what they
 * print (a commit message, say) to a file, so a word only known when it
 * runs, which could be that option naming git's own configuration, is not
 * understood. A known file is read like any other word (not one of git's).
 */
const gitPrinting = (subcommand: string): Reading => (words, more) => {
  const read = beforeDashes(words)
  if (more || read.includes(undefined)) return `git ${subcommand} is given a word only known when it runs, which could be --output=FILE (it writes to that file)`
  const at = read.indexOf('--output')
  if (at !== -1 && read[at + 1] === undefined) return `git ${subcommand} --output writes to a file only known when it runs`
  return undefined
}

/**
 * The git subcommands dsh-slack understands, each with what it may be
 * given. Not here, so not understood: `config` (and so aliases),
 * `submodule` (`foreach` runs commands), `send-pack`, `bisect` (`run`),
 * `filter-branch`, `difftool`/`mergetool`, `worktree`, `notes`, `replace`,
 * `apply`/`am`, any alias, and any `git-*` program found on the PATH.
 */
export const GIT_SUBCOMMANDS: Readonly<Record<string, Reading>> = {
  add: anyArguments,
  blame: anyArguments,
  branch: anyArguments,
  'cat-file': anyArguments,
  checkout: anyArguments,
  'cherry-pick': anyArguments,
  clean: anyArguments,
  clone: gitWithout('clone', { '-u': RUNS_ON_REMOTE_SIDE, '--upload-pack': RUNS_ON_REMOTE_SIDE, '--template': 'copies hooks from another folder', '-c': 'sets configuration in the new repository', '--config': 'sets configuration in the new repository' }),
  commit: anyArguments,
  'count-objects': anyArguments,
  describe: anyArguments,
  diff: gitPrinting('diff'),
  fetch: gitWithout('fetch', { '--upload-pack': RUNS_ON_REMOTE_SIDE }),
  'for-each-ref': anyArguments,
  grep: gitWithout('grep', { '-O': 'opens the files found in a program it names', '--open-files-in-pager': 'opens the files found in a program it names' }),
  init: gitWithout('init', { '--template': 'copies hooks from another folder' }),
  log: gitPrinting('log'),
  'ls-files': anyArguments,
  'ls-tree': anyArguments,
  merge: gitWithout('merge', { '-s': 'runs the merge strategy it names as a program', '--strategy': 'runs the merge strategy it names as a program' }),
  'merge-base': anyArguments,
  mv: anyArguments,
  'name-rev': anyArguments,
  pull: gitWithout('pull', { '--upload-pack': RUNS_ON_REMOTE_SIDE, '-s': 'runs the merge strategy it names as a program', '--strategy': 'runs the merge strategy it names as a program' }),
  push: gitWithout('push', { '--receive-pack': RUNS_ON_REMOTE_SIDE, '--exec': RUNS_ON_REMOTE_SIDE }),
  rebase: gitWithout('rebase', { '-x': 'runs a command after each commit', '--exec': 'runs a command after each commit', '-s': 'runs the merge strategy it names as a program', '--strategy': 'runs the merge strategy it names as a program' }),
  reflog: anyArguments,
  remote: (words) => (words.length === 0 || ['-v', '--verbose', 'show', 'get-url'].includes(words[0] ?? '') ? undefined : `git remote ${words[0] ?? '(a word only known when it runs)'} changes where a later push goes (only git remote, -v, show and get-url are understood)`),
  reset: anyArguments,
  restore: anyArguments,
  revert: anyArguments,
  'rev-list': anyArguments,
  'rev-parse': anyArguments,
  rm: anyArguments,
  shortlog: gitPrinting('shortlog'),
  show: gitPrinting('show'),
  'show-ref': anyArguments,
  stash: anyArguments,
  status: anyArguments,
  switch: anyArguments,
  tag: anyArguments,
  version: anyArguments,
}

/** Why git does not understand a subcommand that is not listed, where there is more to say than that. */
const GIT_NOT_UNDERSTOOD: Readonly<Record<string, string>> = {
  config: 'git config changes configuration, which can change what any later git command does (an alias, a forced or mirrored push)',
  submodule: 'git submodule runs commands in each submodule (foreach) and updates them as their configuration says',
  'send-pack': 'git send-pack pushes without the options of git push',
  bisect: 'git bisect run runs a command',
}

/** git: one of the subcommands above (git's own options are read first: normalise-command.ts). */
const readGit: Reading = (words, more) => {
  const [subcommand, ...rest] = words
  if (subcommand === undefined) return words.length === 0 && !more ? undefined : "git's command is only known when it runs"
  const reading = GIT_SUBCOMMANDS[subcommand]
  if (!reading) return GIT_NOT_UNDERSTOOD[subcommand] ?? `git ${subcommand} is not a git command dsh-slack understands (it may be an alias, or a git-${subcommand} program)`
  return reading(rest, more)
}

/**
 * git's own options before its subcommand that dsh-slack understands (they
 * are dropped, so a rule sees `git push`). Not understood: `-c` and
 * `--config-env` (configuration), `--exec-path=…` (where git finds its
 * programs), `--git-dir`, `--work-tree`, `--bare` and `--namespace` (another
 * repository, whose configuration may say anything), `--super-prefix`,
 * `--attr-source` and `--list-cmds`.
 */
export const GIT_GLOBAL_OPTIONS: WrapperSpec = {
  flags: ['-p', '--paginate', '-P', '--no-pager', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-advice', '--no-lazy-fetch', '--exec-path', '--html-path', '--man-path', '--info-path', '-v', '--version', '-h', '--help'],
  valued: ['-C'],
}

/** Why one of git's own options is not understood. */
export function whyGitOptionNotUnderstood(option: string): string {
  if (option === '-c' || option === '--config-env') return `git ${option} sets configuration, which can change what any git command does (make a push forced or mirrored, or a word a command)`
  if (option === '--exec-path') return 'git --exec-path=… changes where git finds the programs it runs'
  if (['--git-dir', '--work-tree', '--bare', '--namespace'].includes(option)) return `git ${option} points git at another repository, whose configuration may say anything`
  return `git ${option} is not a git option dsh-slack understands`
}

/**
 * The programs dsh-slack understands. Each is known not to run its
 * arguments and not to change what a later command does, once its words are
 * read as its entry says. Shell builtins that run, defer or import commands
 * (`eval` of unknown words, `source`, `.`, `trap`, `coproc`, `alias`,
 * `shopt`, `hash`, `enable`, `read`) are deliberately absent, as are every
 * interpreter and runner (`python`, `node`, `perl`, `awk`, `ssh`, `watch`,
 * `flock`, `parallel`, `su`, `script`, `busybox`, `npx`…). Wrappers whose
 * options are read (`sudo`, `env`, `timeout`, `xargs`…: wrappers.ts) and
 * `bash -c '…'` are read through: what they run must be understood itself.
 */
export const UNDERSTOOD_PROGRAMS: Readonly<Record<string, UnderstoodProgram>> = {
  // Shell builtins that run nothing.
  ':': understoodAsIs,
  true: understoodAsIs,
  false: understoodAsIs,
  echo: understoodAsIs,
  printf: { read: printfReading((name) => understoodVariable(name)) },
  pwd: understoodAsIs,
  test: understoodAsIs,
  '[': understoodAsIs,
  exit: understoodAsIs,
  return: understoodAsIs,
  break: understoodAsIs,
  continue: understoodAsIs,
  shift: understoodAsIs,
  wait: understoodAsIs,
  type: understoodAsIs,
  cd: { read: readCd },
  set: { read: setReading(SET_LETTERS, SET_OPTION_NAMES) },
  /** `env` alone prints the environment (with a program, it is a wrapper: wrappers.ts). */
  env: understoodAsIs,
  /** `exec` with only redirections (with a program, it is a wrapper). */
  exec: understoodAsIs,
  // Programs that read and print: none of their options runs a program.
  ls: understoodAsIs,
  cat: understoodAsIs,
  head: understoodAsIs,
  tail: understoodAsIs,
  wc: understoodAsIs,
  grep: understoodAsIs,
  egrep: understoodAsIs,
  fgrep: understoodAsIs,
  /** ripgrep: every option but `--pre`, which runs a program on each file. */
  rg: { read: withoutOptions('rg', { '--pre': 'runs a program on each file it searches' }) },
  jq: understoodAsIs,
  /** sort: every option but `--compress-program`, which runs a program. */
  sort: { read: withoutOptions('sort', { '--compress-program': 'runs a program to compress its temporary files' }) },
  uniq: understoodAsIs,
  cut: understoodAsIs,
  tr: understoodAsIs,
  nl: understoodAsIs,
  tac: understoodAsIs,
  rev: understoodAsIs,
  paste: understoodAsIs,
  comm: understoodAsIs,
  cmp: understoodAsIs,
  diff: understoodAsIs,
  column: understoodAsIs,
  fold: understoodAsIs,
  basename: understoodAsIs,
  dirname: understoodAsIs,
  realpath: understoodAsIs,
  readlink: understoodAsIs,
  stat: understoodAsIs,
  file: understoodAsIs,
  du: understoodAsIs,
  df: understoodAsIs,
  tree: understoodAsIs,
  which: understoodAsIs,
  whoami: understoodAsIs,
  id: understoodAsIs,
  uname: understoodAsIs,
  printenv: understoodAsIs,
  ps: understoodAsIs,
  sleep: understoodAsIs,
  seq: understoodAsIs,
  /** date: every option but `-s`/`--set`, which sets the clock. */
  date: { read: withoutOptions('date', { '-s': 'sets the clock', '--set': 'sets the clock' }) },
  md5sum: understoodAsIs,
  sha1sum: understoodAsIs,
  sha256sum: understoodAsIs,
  sha512sum: understoodAsIs,
  base64: understoodAsIs,
  od: understoodAsIs,
  hexdump: understoodAsIs,
  mktemp: understoodAsIs,
  find: { read: findReading(FIND_PRIMARIES) },
  sed: { read: sedReading(SED_FLAGS) },
  // Programs that change files: none runs a program; those that write must know every file they are given.
  rm: pathsAsIs,
  rmdir: pathsAsIs,
  mkdir: pathsAsIs,
  touch: pathsAsIs,
  cp: { read: writesKnownFiles('cp'), paths: true },
  mv: { read: writesKnownFiles('mv'), paths: true },
  ln: { read: writesKnownFiles('ln'), paths: true },
  chmod: { read: writesKnownFiles('chmod'), paths: true },
  tee: { read: writesKnownFiles('tee'), paths: true },
  // Programs that run what the repository defines (its scripts, its Makefile, its hooks): understood without the arguments that would make them run something else.
  git: { read: readGit },
  npm: { read: NPM },
  pnpm: { read: PNPM },
  yarn: { read: YARN },
  make: { read: makeReading(MAKE_OPTIONS) },
}

/**
 * Environment variables dsh-slack understands a command to set: they change
 * how programs print, not what they run. Lower-case names are the shell's
 * own variables by convention (`out=$(…)`), except npm's `npm_config_*`,
 * which configure npm. Anything else (`PATH`, `GIT_*`, `LD_PRELOAD`,
 * `BASH_ENV`, `HOME`, `EDITOR`, `NODE_OPTIONS`…) may change what a program
 * runs, so a command that sets it is not understood.
 */
export const UNDERSTOOD_VARIABLES: ReadonlySet<string> = new Set(['CI', 'NODE_ENV', 'DEBUG', 'FORCE_COLOR', 'NO_COLOR', 'TERM', 'TZ', 'LANG', 'LANGUAGE', 'LC_ALL', 'COLUMNS', 'LINES', 'NODE_NO_WARNINGS', 'RUST_BACKTRACE', 'RUST_LOG'])

export function understoodVariable(name: string): boolean {
  if (UNDERSTOOD_VARIABLES.has(name) || /^LC_[A-Z]+$/.test(name)) return true
  return /^[a-z][a-z0-9_]*$/.test(name) && !name.startsWith('npm_')
}

/**
 * Whether a word names one of git's own files: a `.git` folder or anything
 * in it (configuration, hooks), or a git configuration file. A command line
 * naming one is not understood: writing them changes what a later git
 * command does.
 */
export function namesGitFile(word: string): boolean {
  return /(^|[/=:])\.git(\/|$)/.test(word) || /(^|[/=:])\.?gitconfig$/.test(word) || /(^|[/=:])\.config\/git(\/|$)/.test(word)
}

/**
 * Whether a word as written (quotes and `$…` included) looks like it names
 * one of git's own files, for a word whose value is only known when it
 * runs: `"$HOME/.gitconfig"`, `"$repo"/.git/config`.
 */
export function writtenLikeGitFile(text: string): boolean {
  return /(^|[/=:"'}])\.git(\/|$|["'])/.test(text) || /\.?gitconfig(["']|$)/.test(text) || /\.config\/git(\/|$|["'])/.test(text)
}

/** Directories a program given by its path is taken to be the program of that name from: elsewhere it may be any file. */
const SYSTEM_DIRECTORIES = ['/bin/', '/usr/bin/', '/usr/local/bin/', '/sbin/', '/usr/sbin/', '/usr/local/sbin/']

/** The words of one simple command, once wrappers are read through: what `understand` reads. */
export interface ReadPart {
  program: string
  /** The program as written, when it was a path (`/usr/bin/git`, `./git`). */
  programPath?: string
  /** Its words after the program (for git, after git's own options), as the shell passes them. */
  words: Words
  more: boolean
  /** Variables the command sets for itself (`NAME=value git …`, `env NAME=value …`). */
  assignments: readonly string[]
}

/** Whether a program written as a path is taken to be the program of its name: a file in a system directory. */
export function fromSystemDirectory(path: string): boolean {
  return SYSTEM_DIRECTORIES.some((directory) => path.startsWith(directory) && !path.slice(directory.length).includes('/'))
}

/** Why a program written as `path` is not understood, when it is not from a system directory. */
export function whyPathNotUnderstood(path: string, program: string): string {
  return `it runs the file ${path}, which may be any program (only ${program} from ${SYSTEM_DIRECTORIES.join(', ')} is taken to be ${program})`
}

/** Why a simple command is not understood, or `undefined` when it is. */
export function whyNotUnderstood(part: ReadPart): string | undefined {
  const variable = part.assignments.find((name) => !understoodVariable(name))
  if (variable !== undefined) return `it sets ${variable} for ${part.program}: not a variable dsh-slack understands, and it may change what ${part.program} does`
  if (part.programPath !== undefined && !fromSystemDirectory(part.programPath)) return whyPathNotUnderstood(part.programPath, part.program)
  const known = UNDERSTOOD_PROGRAMS[part.program]
  if (!known) return whyNotListed(part.program, part.words)
  return known.read(part.words, part.more)
}

