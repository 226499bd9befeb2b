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

/** Compound commands an operator's allow rule (`git status*`, `ls *`) once matched as a whole. */
export const OVER_MATCHES: readonly { name: string; command: string; allowRule: string; expected: 'force-push' | 'defaults' }[] = [
  { name: 'git status; a force push', command: 'git status; git push --force origin main', allowRule: 'git-status', expected: 'force-push' },
  { name: 'ls *; rm -rf ~', command: 'ls *; rm -rf ~', allowRule: 'ls', expected: 'defaults' },
]

/** The force-push rule's `match` exactly as docs/policy.md's complete example writes it. */
export function docsForcePushMatch(): unknown {
  const markdown = readFileSync(new URL('../../../docs/policy.md', import.meta.url), 'utf8')
  const block = /<!-- doc-test: file policy\.yml -->\n```yaml\n([\s\S]*?)\n```/.exec(markdown)
  if (!block) throw new Error('docs/policy.md has no policy.yml example')
  const file = parse(block[1]!) as { rules: { name: string; match: unknown }[] }
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
