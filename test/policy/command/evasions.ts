import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

/**
 * Issue 40 item 3: commands that once slipped past the force-push rule of
 * docs/policy.md (it was four globs over the raw text). Each must fall to it.
 */
export const EVASIONS: readonly { name: string; command: string }[] = [
  { name: 'bundled short flags', command: 'git push -uf origin main' },
  { name: 'two spaces between words', command: 'git  push --force origin main' },
  { name: 'a tab between words', command: 'git\tpush --force origin main' },
  { name: 'a leading space', command: ' git push --force origin main' },
  { name: 'a +refspec', command: 'git push origin +main' },
  { name: 'git -C dir', command: 'git -C . push --force origin main' },
  { name: 'an absolute program path', command: '/usr/bin/git push --force origin main' },
  { name: 'the command builtin', command: 'command git push --force origin main' },
  { name: 'an environment assignment', command: 'FOO=1 git push --force origin main' },
  { name: 'a harmless command first', command: 'cd . && git push --force origin main' },
  { name: 'bash -c', command: "bash -c 'git push --force origin main'" },
  { name: '--mirror', command: 'git push --mirror origin' },
  { name: 'a :refspec (delete)', command: 'git push origin :main' },
  { name: '--delete', command: 'git push --delete origin main' },
]

/** The rule an issue-48 evasion must fall under: the docs' force-push rule, or a rule for `rm -rf /`. */
export type HeldBy = 'force-push' | 'rm-root'

/**
 * Issue 48 item 2: commands that fell to the defaults (one click by anyone)
 * under the docs' force-push rule, or under a rule for `rm -rf /`, though a
 * real bash runs `git push -f` (or removes `/`) for each. The issue lists 38
 * ways in 39 counts; `GIT_CONFIG_*` is here both as a prefix and exported,
 * and the last two (words after a redirection, which tree-sitter reads as
 * more redirection targets, or as the target of one that takes none) were
 * found while fixing the others.
 */
/**
 * How the fixed reading sees an evasion: a part not understood (with why),
 * a part whose words are only known when it runs (with why), or the command
 * read as bash runs it, which the rule then matches.
 */
export type Seen = 'not understood' | 'words only known when it runs' | 'read as it runs'

/** Each evasion, the rule that must hold it, how it is read, and why it is not understood (or which words are only known when it runs). */
export const ISSUE_48_EVASIONS: readonly { name: string; command: string; heldBy: HeldBy; seen: Seen; why?: RegExp; readAs?: string }[] = [
  { name: 'a line continuation inside a word', command: 'git pu\\\nsh -f origin main', heldBy: 'force-push', seen: 'not understood', why: /a line continuation \(a backslash at the end of a line\) is inside a word/ },
  { name: 'coproc', command: 'coproc git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /coproc runs a command in the background/ },
  { name: 'trap … EXIT', command: "trap 'git push -f origin main' EXIT", heldBy: 'force-push', seen: 'not understood', why: /trap runs a command later/ },
  { name: 'an alias with shopt -s expand_aliases', command: "shopt -s expand_aliases\nalias p='git push -f'\np origin main", heldBy: 'force-push', seen: 'not understood', why: /shopt changes how the shell reads the commands after it/ },
  { name: 'source <(…)', command: "source <(echo 'git push -f origin main')", heldBy: 'force-push', seen: 'not understood', why: /source runs the commands in a file/ },
  { name: '. file', command: '. ./push.sh', heldBy: 'force-push', seen: 'not understood', why: /\. runs the commands in a file/ },
  { name: 'bash file', command: 'bash ./push.sh', heldBy: 'force-push', seen: 'not understood', why: /bash runs the script "\.\/push\.sh"/ },
  { name: 'GIT_CONFIG_COUNT/KEY/VALUE as a prefix', command: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true git push origin', heldBy: 'force-push', seen: 'not understood', why: /it sets GIT_CONFIG_COUNT for git/ },
  { name: 'GIT_CONFIG_COUNT/KEY/VALUE exported', command: 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=+refs/heads/main:refs/heads/main; git push origin', heldBy: 'force-push', seen: 'not understood', why: /it sets GIT_CONFIG_COUNT, not a variable dsh-slack understands/ },
  { name: 'GIT_CONFIG_PARAMETERS', command: "GIT_CONFIG_PARAMETERS=\"'remote.origin.mirror'='true'\" git push origin", heldBy: 'force-push', seen: 'not understood', why: /it sets GIT_CONFIG_PARAMETERS for git/ },
  { name: 'git config alias.p … && git p', command: "git config alias.p 'push -f' && git p origin main", heldBy: 'force-push', seen: 'not understood', why: /git config changes configuration/ },
  { name: 'git -c remote.origin.push=+…', command: "git -c 'remote.origin.push=+refs/heads/*:refs/heads/*' push origin", heldBy: 'force-push', seen: 'not understood', why: /git -c sets configuration/ },
  { name: 'git -c remote.origin.mirror=true', command: 'git -c remote.origin.mirror=true push origin', heldBy: 'force-push', seen: 'not understood', why: /git -c sets configuration/ },
  { name: 'git -c include.path=…', command: 'git -c include.path=/tmp/force.gitconfig push origin', heldBy: 'force-push', seen: 'not understood', why: /git -c sets configuration/ },
  { name: 'git send-pack --force', command: 'git send-pack --force origin main', heldBy: 'force-push', seen: 'not understood', why: /git send-pack pushes without the options of git push/ },
  { name: 'git submodule foreach', command: "git submodule foreach 'git push -f origin main'", heldBy: 'force-push', seen: 'not understood', why: /git submodule runs commands in each submodule/ },
  { name: 'git rebase -x', command: "git rebase -x 'git push -f origin main' main", heldBy: 'force-push', seen: 'not understood', why: /git rebase -x runs a command after each commit/ },
  { name: 'find -exec', command: "find . -maxdepth 0 -exec git push -f origin main ';'", heldBy: 'force-push', seen: 'not understood', why: /find -exec is not a find test or action dsh-slack understands \(it runs a command\)/ },
  { name: 'find -execdir', command: 'find . -maxdepth 0 -execdir git push -f origin main \\;', heldBy: 'force-push', seen: 'not understood', why: /find -execdir is not a find test or action dsh-slack understands \(it runs a command\)/ },
  { name: 'ionice', command: 'ionice -c 3 git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /ionice runs a command it is given/ },
  { name: 'taskset', command: 'taskset -c 0 git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /taskset runs a command it is given/ },
  { name: 'flock', command: 'flock /tmp/push.lock git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /flock runs a command it is given/ },
  { name: 'chrt', command: 'chrt --other 0 git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /chrt runs a command it is given/ },
  { name: 'script -c', command: "script -qc 'git push -f origin main' /dev/null", heldBy: 'force-push', seen: 'not understood', why: /script runs a command it is given/ },
  { name: 'su -c', command: "su deploy -c 'git push -f origin main'", heldBy: 'force-push', seen: 'not understood', why: /su runs a command it is given/ },
  { name: 'runuser', command: 'runuser -u deploy -- git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /runuser runs a command it is given/ },
  { name: 'busybox sh -c', command: "busybox sh -c 'git push -f origin main'", heldBy: 'force-push', seen: 'not understood', why: /busybox runs the program it names/ },
  { name: 'fish -c', command: "fish -c 'git push -f origin main'", heldBy: 'force-push', seen: 'not understood', why: /fish -c runs a command line in a shell dsh-slack does not read/ },
  { name: 'tcsh -c', command: "tcsh -c 'git push -f origin main'", heldBy: 'force-push', seen: 'not understood', why: /tcsh -c runs a command line in a shell dsh-slack does not read/ },
  { name: 'watch', command: 'watch -n 60 git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /watch runs a command it is given/ },
  { name: 'parallel', command: 'parallel git push -f {} main ::: origin', heldBy: 'force-push', seen: 'not understood', why: /parallel runs a command it is given/ },
  { name: 'ssh', command: 'ssh localhost git push -f origin main', heldBy: 'force-push', seen: 'not understood', why: /ssh runs a command it is given/ },
  { name: 'python -c', command: "python3 -c 'import os; os.system(\"git push -f origin main\")'", heldBy: 'force-push', seen: 'not understood', why: /python3 runs the code it is given/ },
  { name: "awk 'BEGIN{system(…)}'", command: "awk 'BEGIN { system(\"git push -f origin main\") }'", heldBy: 'force-push', seen: 'not understood', why: /awk runs the code it is given/ },
  { name: 'perl -e', command: "perl -e 'system(\"git push -f origin main\")'", heldBy: 'force-push', seen: 'not understood', why: /perl runs the code it is given/ },
  { name: 'cd / && rm -rf *', command: 'cd / && rm -rf *', heldBy: 'rm-root', seen: 'words only known when it runs', why: /\* is a pattern the shell expands into file names/ },
  { name: 'rm -rf ../../..', command: 'rm -rf ../../..', heldBy: 'rm-root', seen: 'words only known when it runs', why: /\.\.\/\.\.\/\.\. climbs out of a directory dsh-slack does not know/ },
  { name: 'busybox rm', command: 'busybox rm -rf /', heldBy: 'rm-root', seen: 'not understood', why: /busybox runs the program it names/ },
  { name: 'find / -delete', command: 'find / -delete', heldBy: 'rm-root', seen: 'not understood', why: /find -delete is not a find test or action dsh-slack understands \(it deletes what it finds\)/ },
  { name: 'words after a redirection', command: 'git >/dev/null push -f origin main', heldBy: 'force-push', seen: 'read as it runs', readAs: 'git push -f origin main' },
  { name: 'a +refspec after a closed descriptor', command: 'git push origin 3>&- +main', heldBy: 'force-push', seen: 'read as it runs', readAs: 'git push origin +main' },
]

/**
 * Everyday commands every part of which is understood: they must stay under
 * the looser rule (the defaults, or an allow rule that matches them).
 */
export const HARMLESS: readonly string[] = [
  'npm test',
  'npm run build',
  'npm ci',
  'pnpm -r run build',
  'pnpm --filter web test',
  'yarn test',
  'make -j4 build',
  'git status',
  'git status --short && git diff --stat',
  'git log --oneline -20',
  'git add -A && git commit -m "fix: handle empty input"',
  'git push origin main',
  'git push -u origin feature/x',
  'git fetch origin && git rebase origin/main',
  'git checkout -b feature/x',
  'ls -la',
  'ls *.ts',
  'cat package.json | head -20',
  "grep -rn 'TODO' src | wc -l",
  "rg -n 'parseCommand' src",
  "find src -name '*.ts' -type f",
  "sed -n '1,80p' src/index.ts",
  "sed -i 's/foo/bar/g' src/a.ts",
  'mkdir -p build && cp -r dist build/',
  'rm -rf node_modules dist',
  'cd packages/web && npm test',
  'CI=1 npm test 2>&1 | tail -50',
  'NODE_ENV=production npm run build > build.log',
  "echo done; printf '%s\\n' ok",
  'set -euo pipefail; npm ci; npm test',
  'out=$(git rev-parse HEAD); echo "$out"',
  'for f in src/*.ts; do wc -l "$f"; done',
  'if [ -f package.json ]; then npm test; fi',
  "jq '.scripts' package.json",
  'diff -u a.txt b.txt || true',
  'sort -u names.txt | uniq -c',
  "cat > notes.md <<'EOF'\n# Notes\nSome text.\nEOF",
]

/** A rule for `rm -rf /` (and anything under it), held by the leads. */
export const RM_ROOT_RULE = { name: 'rm-root', match: { kind: 'tool-approval', tool: 'bash', command: [{ program: 'rm', flags: ['-r', '-R', '--recursive'], args: ['/', '/*'] }] }, approvers: ['S0LEADS', 'U0SANDBOX01'] }

/** The docs' policy file as text (YAML), as docs/policy.md's complete example writes it. */
export function docsPolicyYaml(): string {
  const markdown = readFileSync(new URL('../../../docs/policy.md', import.meta.url), 'utf8')
  const block = /<!-- doc-test: file policy\.yml -->\n```yaml\n([\s\S]*?)\n```/.exec(markdown)
  if (!block) throw new Error('docs/policy.md has no policy.yml example')
  return block[1]!
}

/** The docs' defaults with only the rule for `rm -rf /` (JSON). */
export function rmRootPolicy(): string {
  const file = parse(docsPolicyYaml()) as { defaults: unknown }
  return JSON.stringify({ defaults: file.defaults, rules: [RM_ROOT_RULE] }, null, 2)
}

/** The policy an issue-48 evasion is checked under: the docs' own, or the docs' defaults with the rule for `rm -rf /`. */
export function policyHolding(heldBy: HeldBy): { text: string; file: string } {
  return heldBy === 'force-push' ? { text: docsPolicyYaml(), file: 'policy.yml' } : { text: rmRootPolicy(), file: 'rm-root.json' }
}

/** Compound commands an operator's allow rule (`git status*`, `ls *`) once matched as a whole. */
export const OVER_MATCHES: readonly { name: string; command: string; allowRule: string; expected: 'force-push' | 'defaults' }[] = [
  { name: 'git status; a force push', command: 'git status; git push --force origin main', allowRule: 'git-status', expected: 'force-push' },
  { name: 'ls *; rm -rf ~', command: 'ls *; rm -rf ~', allowRule: 'ls', expected: 'defaults' },
]

/** The force-push rule's `match` exactly as docs/policy.md's complete example writes it. */
export function docsForcePushMatch(): unknown {
  const file = parse(docsPolicyYaml()) as { rules: { name: string; match: unknown }[] }
  const rule = file.rules.find((one) => one.name === 'force-push')
  if (!rule) throw new Error('docs/policy.md has no force-push rule')
  return rule.match
}

/**
 * The docs' force-push rule among people of the local stand-in: alice
 * approves force pushes; alice and bob everything else (the defaults);
 * the operator's allow rules for `git status` and `ls` let carol approve too.
 */
export function standInPolicy(people: { alice: string; bob: string; carol: string }): string {
  const { alice, bob, carol } = people
  return JSON.stringify({
    defaults: { answerers: [alice, bob], approvals: 1 },
    rules: [
      { name: 'git-status', match: { kind: 'tool-approval', tool: 'bash', command: 'git status*' }, approvers: [alice, bob, carol] },
      { name: 'ls', match: { kind: 'tool-approval', tool: 'bash', command: 'ls *' }, approvers: [alice, bob, carol] },
      { name: 'force-push', match: docsForcePushMatch(), approvers: [alice] },
    ],
  }, null, 2)
}
