/**
 * The team of issue 23, as its operator writes it: plans from the payments
 * repo go to #payments and need two of @payments-leads; `git push --force`
 * needs a lead; everything else one click in #agents. docs/policy.md shows
 * the same file.
 */
export const TEAM_POLICY_YAML = `# dsh-slack policy: who approves what
version: 1
defaults:
  channel: C0AGENTS            # #agents
  answerers: [S0ENGINEERS]     # @engineers answer questions
  approvals: 1
  mention: [S0ENGINEERS]
  remindAfter: 15m
  escalate: { to: S0LEADS, after: 1h }
rules:
  - name: payments-plans
    match:
      kind: plan-review
      cwd: "/srv/payments*"
    channel: C0PAYMENTS        # #payments
    answerers: [S0PAYLEADS]
    approvers: [S0PAYLEADS]    # @payments-leads
    approvals: 2
  - name: force-push
    match:
      kind: tool-approval
      tool: bash
      command: ["git push --force*", "git push -f*", "git push * --force*"]
    approvers: [S0LEADS]       # @leads
  - name: ci-agent
    match:
      key: ci
    channel: C0CI
keys:
  - name: laptop-agents
    sha256: 29ff74a2ffabe803152fe217d2848a185915adbb9d8ada8aea88815bc8b60983
  - name: ci
    sha256:
      - 11783360766b07fd6bde6bda5c921ffb0522eb807fb16296d40260926a7017a5   # old: until every CI job has the new one
      - 8b10271cfa8a4cd5252eacd4bfd5be54d0ea1bb20dd1a2d298b139c3acbda7c9   # new
    channels: [C0CI]
limits:
  pending: 500
  pendingPerKey: 50
`

/** The secrets whose digests the file holds (tests send them as bearer keys). */
export const TEAM_SECRETS = { laptop: 'laptop-secret-0123456789', ciOld: 'ci-secret-old-0123456789', ciNew: 'ci-secret-new-0123456789' } as const
