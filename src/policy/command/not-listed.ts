import { isOption, type Words } from './read-arguments.js'

/**
 * What `policy explain` says about a program that is not on the understood
 * list: these notes only word the reason (a builtin that defers commands, a
 * runner, an interpreter). Whether a program is understood is decided by
 * the list alone (understood.ts), never by these.
 */

/** Why a program not on the list is not understood, where there is more to say than that it is not listed. */
const NOT_LISTED: Readonly<Record<string, string>> = {
  trap: 'runs a command later (on a signal, or when the shell exits)',
  coproc: 'runs a command in the background',
  source: 'runs the commands in a file',
  '.': 'runs the commands in a file',
  alias: 'makes a word run other commands',
  shopt: 'changes how the shell reads the commands after it',
  hash: 'changes which program a name runs',
  enable: 'loads or turns off shell builtins',
  read: 'sets variables from its input',
  mapfile: 'sets variables from its input',
  readarray: 'sets variables from its input',
  let: 'evaluates arithmetic, which can run a command hidden in a variable',
  pushd: 'changes the directory in a way dsh-slack does not follow',
  popd: 'changes the directory in a way dsh-slack does not follow',
  npx: 'runs the package it names',
  busybox: 'runs the program it names (sh, rm…) without being read as that program',
}

const SHELL_LIKE = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'tcsh', 'csh'])
const INTERPRETERS = /^(python[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|lua|awk|gawk|mawk|nawk|Rscript|osascript)$/
const RUNNERS = new Set(['ssh', 'su', 'runuser', 'script', 'watch', 'parallel', 'flock', 'ionice', 'taskset', 'chrt', 'unshare', 'nsenter', 'chroot', 'systemd-run', 'at', 'batch', 'crontab', 'expect', 'strace', 'ltrace', 'gdb', 'valgrind', 'entr', 'setpriv', 'prlimit', 'numactl', 'cgexec', 'firejail', 'bwrap', 'docker', 'podman', 'kubectl'])

/** Why `program` (not on the list) is not understood. */
export function whyNotListed(program: string, words: Words): string {
  const note = NOT_LISTED[program]
  if (note !== undefined) return `${program} ${note}`
  if (SHELL_LIKE.has(program)) {
    if (words.some((word) => word !== undefined && /^-[A-Za-z]*c[A-Za-z]*$/.test(word))) return `${program} -c runs a command line in a shell dsh-slack does not read`
    const script = words.find((word) => word === undefined || !isOption(word))
    return script === undefined && words.length === 0 ? `${program} reads the commands it runs from its input` : `${program} runs ${script === undefined ? 'a script' : `the script ${JSON.stringify(script)}`}, which dsh-slack cannot read`
  }
  if (INTERPRETERS.test(program)) return `${program} runs the code it is given, which dsh-slack cannot read`
  if (RUNNERS.has(program)) return `${program} runs a command it is given, which dsh-slack does not read`
  return `${program} is not a program dsh-slack understands`
}
