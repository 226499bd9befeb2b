/**
 * Programs that run another program given on their own command line, and
 * the options each takes before it: read through, so what they run is what
 * a rule sees, and what must be understood (understood.ts). An option not
 * listed here makes the wrapped command not understood (it may take a
 * value that would be read as the program, or change where or how it
 * runs: `env -C`, `sudo -D` and `sudo -R` change its directory, so they are
 * not listed), which falls to the strictest rule that could apply.
 */
export interface WrapperSpec {
  /** Options without a value (`-x` or `--long`). */
  flags: readonly string[]
  /** Options whose value follows (`-u root`, `-uroot`, `--user=root`, `--user root`). */
  valued: readonly string[]
  /** `NAME=value` words may come before the program (env, sudo). */
  assignments?: boolean
  /** Plain words before the program (timeout's duration). */
  positional?: number
  /** `-10`: a number as an option (nice). */
  numericOption?: boolean
  /** Options whose value is itself a command line (`env -S 'git push -f'`). */
  script?: readonly string[]
  /** The program also gets words it reads at run time (xargs). */
  openEnded?: boolean
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  builtin: { flags: [], valued: [] },
  command: { flags: ['-p', '-v', '-V'], valued: [] },
  doas: { flags: ['-n', '-s', '-L'], valued: ['-u', '-C'] },
  env: {
    flags: ['-i', '-0', '-v', '--ignore-environment', '--null', '--debug'],
    valued: ['-u', '-P', '--unset', '--default-signal', '--ignore-signal', '--block-signal'],
    assignments: true,
    script: ['-S', '--split-string'],
  },
  exec: { flags: ['-c', '-l'], valued: ['-a'] },
  nice: { flags: [], valued: ['-n', '--adjustment'], numericOption: true },
  nohup: { flags: [], valued: [] },
  setsid: { flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'], valued: [] },
  stdbuf: { flags: [], valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  sudo: {
    flags: ['-A', '-b', '-E', '-e', '-H', '-h', '-i', '-K', '-k', '-l', '-n', '-P', '-S', '-s', '-V', '-v', '--askpass', '--background', '--preserve-env', '--edit', '--set-home', '--login', '--remove-timestamp', '--reset-timestamp', '--list', '--non-interactive', '--preserve-groups', '--stdin', '--shell', '--validate'],
    valued: ['-C', '-g', '-p', '-r', '-T', '-t', '-U', '-u', '--close-from', '--group', '--host', '--prompt', '--role', '--type', '--command-timeout', '--other-user', '--user'],
    assignments: true,
  },
  time: { flags: ['-p', '-a', '-v', '-q', '--portability', '--append', '--verbose', '--quiet'], valued: ['-f', '-o', '--format', '--output'] },
  timeout: { flags: ['-v', '--preserve-status', '--foreground', '--verbose'], valued: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  xargs: {
    flags: ['-0', '-r', '-t', '-p', '-x', '-o', '--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty'],
    valued: ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--replace', '--eof', '--process-slot-var'],
    openEnded: true,
  },
}

/** Shells whose `-c STRING` is parsed as the commands it runs. */
export const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash'])

/** Shell options that take a value (`bash -o pipefail -c …`). */
export const SHELL_VALUED: ReadonlySet<string> = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file'])
