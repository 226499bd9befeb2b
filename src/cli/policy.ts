import { policyWarnings } from '../policy/policy-warnings.js'
import { approvalFacts, questionFacts, styleOfQuestions } from '../bridge/ask-policy.js'
import { configFromEnv } from '../config/config.js'
import { isUserInteractionError, validateRequest, type AgentLike } from '../contract/index.js'
import { ApiError } from '../http/api-error.js'
import { parseCreateAskBody } from '../http/create-ask-body.js'
import { loadShellParser } from '../policy/command/shell-parser.js'
import { explain } from '../policy/explain.js'
import type { ApiKeyEntry, AskFacts, OperatorPolicy } from '../policy/operator-policy.js'
import { loadPolicyFile, PolicyFileError } from '../policy/policy-file.js'
import { policyLoosenings } from '../policy/policy-loosenings.js'
import type { AskStyle } from '../policy/tighten.js'
import { environmentKeys, operatorPolicyOf } from '../service/service-policy.js'
import { agentView } from '../bridge/agent-view.js'
import type { CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'
import { parseCommandArgs } from './parse-command-args.js'
import { readRequest } from './read-request.js'
import { UsageError } from './usage-error.js'

export const POLICY_HELP = `Usage: dsh-slack policy check FILE
       dsh-slack policy explain REQUEST.json [--key NAME]

check    validates a policy file (YAML or JSON): exit 0 when it is usable,
         2 with the file, line and field of the first mistake. With
         DSH_SLACK_POLICY set to another file, it also lists where FILE is
         looser than that one: the service refuses such a change when it
         picks it up from the file, and applies it on SIGHUP.
explain  says which rule of the policy in force (DSH_SLACK_POLICY, else the
         environment variables' one rule) an ask falls under and why, and
         what it needs: channel, answerers, approvers, quorum, reminder,
         escalation; and whether the request's own policy and channel would
         be accepted (exit 0) or refused with POLICY_FORBIDDEN (exit 2).
         REQUEST.json is a POST /v1/asks body, or a tool approval like
         {"tool": "bash", "command": "git push --force", "host": "https://…"}.

Options:
  --key NAME   explain it as sent with this API key (rules can match on it)
  -h, --help   show this help`

/** `dsh-slack policy check|explain`. */
export async function policyCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' }, key: { type: 'string' } } })
  if (values.help) {
    io.stdout.write(`${POLICY_HELP}\n`)
    return EXIT.ok
  }
  const [action, file, ...extra] = positionals
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`)
  if (action === 'check') {
    if (file === undefined) throw new UsageError('policy check needs the FILE to check')
    if (values.key !== undefined) throw new UsageError('--key goes with policy explain')
    return check(file, io)
  }
  if (action === 'explain') {
    if (file === undefined) throw new UsageError('policy explain needs the REQUEST.json to explain (or - for stdin)')
    return explainRequest(file, values.key, io)
  }
  throw new UsageError(action === undefined ? 'say what to do: policy check FILE, or policy explain REQUEST.json' : `unknown policy action ${JSON.stringify(action)}; the actions are check and explain`)
}

function check(file: string, io: CliIo): number {
  const config = configFromEnv(io.env, { checkCombination: false })
  try {
    const policy = loadPolicyFile(file, environmentKeys(config))
    const rules = policy.rules.map((rule) => rule.name)
    io.stdout.write(`✓ ${file}: valid (version ${policy.version}): ${rules.length} rule(s)${rules.length > 0 ? ` (${rules.join(', ')})` : ''}, ${policy.keys.length} key(s), at most ${policy.limits.pending} pending asks (${policy.limits.pendingPerKey} per key)\n`)
    for (const warning of policyWarnings(policy)) io.stdout.write(`! warning: ${warning}\n`)
    for (const line of comparedWithPolicyInForce(policy, config.policyPath, environmentKeys(config))) io.stdout.write(`! ${line}\n`)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof PolicyFileError)) throw error
    io.stderr.write(`dsh-slack policy: ${error.message}\n`)
    return EXIT.invalid
  }
}

/**
 * Where `policy` is looser than the file at DSH_SLACK_POLICY, when that is
 * set: the running service refuses such a
 * change when it picks it up from the file, and applies it on SIGHUP.
 */
function comparedWithPolicyInForce(policy: OperatorPolicy, policyPath: string | undefined, keys: ApiKeyEntry[]): string[] {
  // The file at DSH_SLACK_POLICY itself compares as equal: nothing to say.
  if (policyPath === undefined) return []
  let inForce: OperatorPolicy
  try {
    inForce = loadPolicyFile(policyPath, keys)
  } catch (error) {
    if (!(error instanceof PolicyFileError)) throw error
    return [`not compared with DSH_SLACK_POLICY: ${error.message}`]
  }
  const looser = policyLoosenings(inForce, policy)
  if (looser.length === 0) return []
  return [...looser.map((problem) => `looser than DSH_SLACK_POLICY (${policyPath}): ${problem}`), `the service refuses a looser file it picks up by itself: put this one in place and send SIGHUP to apply it (docs/policy.md, "Reloading")`]
}

/** The facts and style of the request file: a POST /v1/asks body, or a tool approval. */
function factsOf(request: Record<string, unknown>, key: string | undefined): { facts: AskFacts; style: AskStyle; policy?: unknown; channel?: string } {
  const origin = { ...(key !== undefined ? { key } : {}), ...(typeof request.host === 'string' ? { host: request.host } : {}) }
  if (typeof request.tool === 'string') {
    const agent = typeof request.agent === 'object' && request.agent !== null ? agentView(request.agent as AgentLike) : undefined
    const argumentsText = typeof request.command === 'string' ? JSON.stringify({ command: request.command }) : typeof request.arguments === 'string' ? request.arguments : undefined
    return { facts: approvalFacts(request.tool, argumentsText, agent, origin), style: 'approval', ...(request.policy !== undefined ? { policy: request.policy } : {}) }
  }
  const { host: _host, ...body } = request
  const parsed = parseCreateAskBody(body)
  const valid = validateRequest({ questions: parsed.questions, ...(parsed.agent ? { agent: parsed.agent } : {}) })
  const style = styleOfQuestions(valid.questions)
  return { facts: questionFacts(style, agentView(valid.agent), origin), style, ...(parsed.policy !== undefined ? { policy: parsed.policy } : {}), ...(parsed.channel !== undefined ? { channel: parsed.channel } : {}) }
}

async function explainRequest(file: string, key: string | undefined, io: CliIo): Promise<number> {
  const config = configFromEnv(io.env, { checkCombination: false })
  const policy = operatorPolicyOf(config, config.channel)
  const request = await readRequest(file, io.stdin)
  await loadShellParser()
  let asked: ReturnType<typeof factsOf>
  try {
    asked = factsOf(request, key)
  } catch (error) {
    if (error instanceof ApiError || isUserInteractionError(error)) {
      io.stderr.write(`dsh-slack policy: ${error.code}: ${error.message}\n`)
      return EXIT.invalid
    }
    throw error
  }
  const explanation = explain(policy, asked.facts, { ...(asked.policy !== undefined ? { policy: asked.policy } : {}), ...(asked.channel !== undefined ? { channel: asked.channel } : {}) }, asked.style, config.channel)
  io.stdout.write(`${explanation.lines.join('\n')}\n`)
  return explanation.accepted ? EXIT.ok : EXIT.invalid
}
