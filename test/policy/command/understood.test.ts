import { beforeAll, describe, expect, it } from 'vitest'
import { parseCommand, partText } from '../../../src/policy/command/parse-command.js'
import { loadShellParser } from '../../../src/policy/command/shell-parser.js'
import { namesGitFile, understoodVariable, UNDERSTOOD_PROGRAMS } from '../../../src/policy/command/understood.js'

// The understood list (understood.ts, decision 0085), entry by entry: what
// each reading accepts, and what it refuses with the reason explain shows.

beforeAll(() => loadShellParser())

/** The reasons a command line is not understood; empty when every part is. */
function notUnderstood(command: string): string[] {
  return parseCommand(command).parts.flatMap((part) => (part.unknown !== undefined ? [part.unknown] : []))
}

describe('the understood list', () => {
  it.each([
    'git status --short',
    'git -C packages/web --no-pager log --oneline -5',
    'git push --force-with-lease origin HEAD',
    'git commit -am "wip" && git push -u origin HEAD',
    'git remote -v',
    'git grep -n TODO',
    'git clone --depth 1 https://example.com/repo.git',
    'npm run build --workspace=web',
    'npm --version',
    'pnpm -r --filter "./packages/**" test',
    'yarn',
    'yarn install --frozen-lockfile',
    'make -C sub -j 4 all',
    "sed -nE '/start/,/end/p' notes.txt",
    "sed -e 's/a/b/' -e '3d;$q' x.txt",
    "sed -i.bak 's|/usr|/opt|g' config.txt",
    "find . -type f -newermt '2024-01-01' -not -path './node_modules/*' -print0",
    "rg --pre-glob '*.gz' -n foo",
    'sort -k2 -n -t, data.csv',
    'date -u +%F',
    'set -eux; set +x; set -o pipefail',
    'cd ~ && ls',
    'cd && pwd',
    'printf -v line "%s" x',
    'export CI=true; local_var=1; unset local_var; echo "$local_var"',
    'for file in *.md; do wc -l "$file"; done',
    'while true; do sleep 1; done',
    'case "$1" in start) echo go;; *) echo no;; esac',
    '[[ -n "$x" && "$y" == a* ]] && echo yes',
    'echo $((1 + 2 * 3)) ${x:-default} ${#x} ${x%%.*} ${x//a/b} "${args[@]}"',
    'ls 2>/dev/null >&2 </dev/null',
    'git push \\\n  --force-with-lease origin main',
    '/usr/bin/git status && /bin/ls',
    'env CI=1 npm test',
    'timeout 60 npm test',
    'xargs -0 grep -n foo',
    'echo a | tee out.txt',
    'cp -r src dest && mv a b && ln -s a b && chmod +x run.sh',
    'git log -1 --format=%B --output=message.txt',
  ])('understands %j', (command) => {
    expect(notUnderstood(command)).toEqual([])
  })

  it.each([
    // git
    ['git -c core.hooksPath=/tmp/h commit -m x', /git -c sets configuration/],
    ['git --config-env=core.pager=PAGER log', /git --config-env sets configuration/],
    ['git --exec-path=/tmp/bin push', /git --exec-path=… changes where git finds the programs it runs/],
    ['git --git-dir=/tmp/other push', /points git at another repository/],
    ['git --bare push', /points git at another repository/],
    ['git push --receive-pack="sh -c x" origin', /git push --receive-pack names the program to run for the other side/],
    ['git push --rec=x origin', /git push --receive-pack/],
    ['git push $OPTS origin', /git push is given a word only known when it runs, which could be --receive-pack or --exec/],
    ['git fetch --upload-pack=x .', /git fetch --upload-pack/],
    ['git clone -u x repo', /git clone -u/],
    ['git clone --template=/tmp/t repo', /copies hooks from another folder/],
    ['git rebase --exec "make" main', /git rebase --exec runs a command after each commit/],
    ['git merge -s evil main', /runs the merge strategy it names as a program/],
    ['git grep -O vim TODO', /opens the files found in a program it names/],
    ['git remote add fork url', /git remote add changes where a later push goes/],
    ['git bisect run make', /git bisect run runs a command/],
    ['git lfs push', /git lfs is not a git command dsh-slack understands/],
    ['echo x > .git/config', /it names \.git\/config, one of git's own files/],
    ['cd .git && ls', /it names \.git, one of git's own files/],
    ['cp hook repo/.git/hooks/pre-push', /it names repo\/\.git\/hooks\/pre-push/],
    ['printf "%s" x >> ~/.gitconfig', /it names ~\/\.gitconfig/],
    ['f=.git/config; echo x', /it names \.git\/config/],
    ['f=.gi; f=${f}t/config; git log -1 --format=%B --output="$f"', /git log is given a word only known when it runs, which could be --output=FILE/],
    ['git diff --output "$f"', /git diff is given a word only known when it runs/],
    ['echo x >> "$HOME/.gitconfig"', /it names "\$HOME\/\.gitconfig", one of git's own files/],
    ['cat x > "$repo"/.git/config', /one of git's own files/],
    ['env -u GIT_CONFIG_NOSYSTEM git status', /it sets GIT_CONFIG_NOSYSTEM for git/],
    // variables
    ['PATH=/tmp/bin:$PATH git status', /it sets PATH for git/],
    ['GIT_DIR=/tmp/x git status', /it sets GIT_DIR for git/],
    ['env LD_PRELOAD=/tmp/x.so ls', /it sets LD_PRELOAD for ls/],
    ['export PATH=/tmp/bin; git status', /it sets PATH, not a variable dsh-slack understands/],
    ['npm_config_script_shell=/tmp/sh npm test', /it sets npm_config_script_shell/],
    ['declare -n ref=PATH', /declare -n is not a use of declare dsh-slack understands/],
    ['export -f git', /export -f is not a use of export/],
    ['unset GIT_CONFIG_NOSYSTEM', /unset GIT_CONFIG_NOSYSTEM: not a variable/],
    ['for PATH in /tmp; do git status; done', /the loop sets PATH/],
    ['printf -v PATH %s /tmp', /printf -v sets PATH/],
    ['GIT_DIR=/tmp/x bash -c "git status"', /it sets GIT_DIR for the shell it starts/],
    // shell constructs
    ['git push -\\\nf origin main', /a line continuation \(a backslash at the end of a line\) is inside a word/],
    ['find . -exec touch x ";"', /find -exec is not a find test or action dsh-slack understands \(it runs a command\)/],
    ["x='a[$(git push -f)]'; echo $((x))", /it evaluates arithmetic, which can run a command hidden in a variable's value/],
    ['[[ $x -eq 1 ]]', /evaluates arithmetic/],
    ['for ((i = 0; i < 3; i++)); do ls; done', /a C-style for loop evaluates arithmetic/],
    ['echo ${x:=1}', /sets a variable/],
    ['echo ${x@P}', /transforms the value \(@P runs commands in it\)/],
    ['echo ${x:1:2}', /takes an offset/],
    ['echo ${a[$i]}', /an array subscript evaluates arithmetic/],
    ['echo x > "$out"', /it writes to a file only known when it runs/],
    ['ls; { ls; } > out extra', /words follow a redirection of a compound command/],
    // tree-sitter reads this as `git status | CI=1` and a redirection of the pipeline with words after it: refused, failing closed.
    ['git status | CI=1 2>/dev/null npm test', /words follow a redirection of a compound command/],
    // programs and their words
    ['./git status', /it runs the file \.\/git, which may be any program/],
    ['/tmp/bin/git status', /it runs the file \/tmp\/bin\/git/],
    ['./sudo git status', /it runs the file \.\/sudo/],
    ['env -C / rm -rf usr', /env -C is not an option of env dsh-slack understands/],
    ['sudo -D / rm -rf usr', /sudo -D is not an option of sudo/],
    ['npm test -- --require ./evil.js', /npm test is given --require \.\/evil\.js/],
    ['npm run build extra', /npm run build hands extra to the script/],
    ['npm install left-pad', /npm install is given left-pad: it installs or runs what it names/],
    ['npm exec evil', /npm exec is not a npm command dsh-slack understands \(it runs the program it is given\)/],
    ['npm test --script-shell=/tmp/sh', /npm --script-shell is not an option dsh-slack understands/],
    ['pnpm build', /pnpm build is not a pnpm command dsh-slack understands/],
    ['make CC="sh -c x" all', /make CC=sh -c x sets a make variable/],
    ['make -f other.mk', /make -f is not an option dsh-slack understands/],
    ["sed 's/x/y/e' f", /sed s\/\/\/e runs the result as a shell command/],
    ["sed '1e date' f", /sed e runs a shell command/],
    ["sed 's/x/y/w out' f", /sed s\/\/\/w writes to a file/],
    ["sed -n '/x/w out' f", /sed w writes to a file/],
    ['sed -f script.sed f', /sed -f reads its script from a file/],
    ['sed "$script" f', /sed is given a script only known when it runs/],
    ['sed -i s/a/b/ "$file"', /sed -i rewrites files, and is given a file only known when it runs/],
    ['find . -name "$x"', /find -name is given a word only known when it runs/],
    ['find . -fprint out', /find -fprint is not a find test or action/],
    ['find . -ok rm {} ;', /find -ok is not a find test or action dsh-slack understands \(it runs a command\)/],
    ['sort --compress-program=sh x', /sort --compress-program runs a program/],
    ['rg --pre ./evil foo', /rg --pre runs a program on each file it searches/],
    ['date -s tomorrow', /date -s sets the clock/],
    ['set -k', /set -k is not a shell option dsh-slack understands/],
    ['set -o posix', /set -o posix is not a shell option/],
    ['cd "$dir"', /cd goes to a directory only known when it runs/],
    ['cd -', /cd - goes back to a directory dsh-slack does not know/],
    ['cp "$src" dest', /cp writes to files, and is given a word only known when it runs/],
    ['echo x | tee $f', /tee writes to files/],
    ['echo x | xargs git', /git's command is only known when it runs/],
    ['echo x | xargs find .', /find is given more words when it runs/],
    ['echo x | xargs git push', /git push is given more words when it runs/],
    ['bash', /bash without a script reads the commands it runs from its input/],
    ['bash -i', /bash without a script reads the commands it runs from its input/],
    ['f() { ls; }; f', /f is not a program dsh-slack understands/],
    ['npx vitest', /npx runs the package it names/],
    ['node -e "require(\'child_process\')"', /node runs the code it is given/],
    ['read -r x', /read sets variables from its input/],
    ['hash -p /tmp/git git', /hash changes which program a name runs/],
    ['pushd /tmp', /pushd changes the directory/],
    ['make-believe', /make-believe is not a program dsh-slack understands/],
  ])('does not understand %j, and says why', (command, why) => {
    expect(notUnderstood(command)).toContainEqual(expect.stringMatching(why))
  })

  it('reads path operands of a program that takes paths: normalised when absolute, unknown when they climb or follow a cd', () => {
    const words = (command: string) => parseCommand(command).parts.map((part) => partText(part))

    expect(words('rm -rf //usr/./lib/ /')).toEqual(['rm -r -f /usr/lib /'])
    expect(words('rm -rf /usr/..')).toEqual(['rm -r -f ?'])
    expect(words('rm -rf build ./dist ~/cache')).toEqual(['rm -r -f build ./dist ~/cache'])
    expect(words('cd /srv && rm -rf build')).toEqual(['cd /srv', 'rm -r -f ?'])
    expect(words('cd /srv && git push origin main')).toEqual(['cd /srv', 'git push origin main'])
    expect(parseCommand('cd / && rm -rf usr').parts[1]!.unknownWords).toEqual(['usr is relative to a directory the command line changes to'])
  })

  it('gives a redirection written after the last command of a list or pipeline, and its words, to that command', () => {
    const words = (command: string) => parseCommand(command).parts.map((part) => (part.unknown !== undefined ? `unknown: ${part.unknown}` : partText(part)))

    expect(words('git status || git 2>/dev/null push -f origin main')).toEqual(['git status', 'git push -f origin main'])
    expect(words('ls | git >/dev/null push origin +main')).toEqual(['ls', 'git push origin +main'])
  })

  it('names each variable it understands by a rule: listed, LC_*, or lower-case but npm_*', () => {
    expect(['CI', 'NODE_ENV', 'LC_MESSAGES', 'out', 'file_2'].filter(understoodVariable)).toEqual(['CI', 'NODE_ENV', 'LC_MESSAGES', 'out', 'file_2'])
    expect(['PATH', 'GIT_DIR', 'HOME', 'EDITOR', 'npm_config_x', 'Out', '_x'].filter(understoodVariable)).toEqual([])
  })

  it("names git's own files wherever they sit in a word, and nothing that only looks like them", () => {
    expect(['.git', '.git/config', 'a/.git/hooks/x', '--output=.git/config', '/etc/gitconfig', '~/.gitconfig', '~/.config/git/config'].filter(namesGitFile)).toHaveLength(7)
    expect(['.gitignore', '.github/workflows/ci.yml', 'repo.git', 'my.git/x', 'gitconfig.md'].filter(namesGitFile)).toEqual([])
  })

  it('keeps runners and builtins that run, defer or import commands off the list', () => {
    for (const program of ['eval', 'source', '.', 'trap', 'coproc', 'alias', 'shopt', 'hash', 'enable', 'read', 'let', 'awk', 'python3', 'node', 'perl', 'ssh', 'watch', 'flock', 'parallel', 'su', 'script', 'busybox', 'npx', 'xargs', 'sudo', 'env-S', 'bash', 'sh']) {
      expect(UNDERSTOOD_PROGRAMS[program], program).toBeUndefined()
    }
  })
})
