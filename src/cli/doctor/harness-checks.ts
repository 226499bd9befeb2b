import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { isSupportedNode, SUPPORTED_NODE } from '../../config/node-range.js'
import { isServiceConfig, parsePluginConfig, pluginConfigFromEnv, type SlackPluginConfig } from '../../cordis/plugin-config.js'
import { SqliteDatabase } from '../../store/sqlite-driver.js'
import type { CheckResult } from './run-checks.js'

/** The harness's own `engines` (SEAM.md), which dsh-slack's are: what the Node running it must satisfy. */
const HARNESS_NODE = SUPPORTED_NODE

/** One loader patch as the harness reads them: an `insert` of entries, or an `id` with overrides. */
const patchSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  config: z.unknown().optional(),
  insert: z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional(), config: z.unknown().optional() })).optional(),
})

/** What `doctor --harness` learned, for the Slack checks that follow: the plugin's settings, when it has a Slack connection of its own. */
export interface HarnessFindings {
  results: CheckResult[]
  /** The plugin's own Slack settings (absent when it asks through a service, or its config is wrong). */
  slack?: { botToken: string; appToken?: string; signingSecret?: string; channel?: string; slackApiUrl?: string; codeChannels?: 'auto' | 'off' }
  /** The setting that turns the plugin's code channels off, where the person sets it (its entry's config, or the environment). */
  codeChannelsOffBy?: string
  /** It asks through a running service: Slack is that service's to check. */
  viaService?: string
}

const fail = (name: string, detail: string, fix: string): CheckResult => ({ ok: false, name, detail, fix })
const pass = (name: string, detail: string): CheckResult => ({ ok: true, name, detail })

/**
 * Checks a harness profile for dsh-slack: the patch file (a profile folder
 * or its `cordis.patch.yml`) is a list of loader patches, dsh-slack has an
 * entry or a config patch there (or is configured by the environment), its
 * settings are what the plugin accepts, a headless profile gives the model
 * the ask tool, and this Node can load dsh-slack's SQLite module as the
 * harness's must.
 */
export function checkHarnessProfile(path: string, env: NodeJS.ProcessEnv): HarnessFindings {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'cordis.patch.yml') : path
  const profile = basename(dirname(file))
  let patches: z.infer<typeof patchSchema>[]
  try {
    // logLevel error: a tag the harness defines for itself keeps its plain value here, without a warning printed over doctor's lines.
    const parsed = z.array(patchSchema).safeParse(parseYaml(readFileSync(file, 'utf8'), { logLevel: 'error' }))
    if (!parsed.success) {
      return { results: [fail('harness patch', `${file} is not a list of loader patches`, 'the harness wants a top-level YAML list, e.g. "- id: dsh-slack" followed by "  config: {…}" (docs/harness-plugin.md); a map such as "dsh-slack/cordis:" is refused')] }
    }
    patches = parsed.data
  } catch (error) {
    return { results: [fail('harness patch', `cannot read ${file}: ${error instanceof Error ? error.message.split('\n')[0]!.replace(/:$/, '') : String(error)}`, 'give the profile folder ($DSH_HOME/profiles/<name>) or its cordis.patch.yml')] }
  }

  const results: CheckResult[] = [pass('harness patch', `${file}: ${patches.length} loader patch${patches.length === 1 ? '' : 'es'}`)]
  const entries = patches.flatMap((patch) => [patch, ...(patch.insert ?? [])])
  const ours = entries.filter((entry) => entry.id === 'dsh-slack' || entry.name === 'dsh-slack/cordis')
  const configured = ours.find((entry) => entry.config !== undefined)
  let plugin: SlackPluginConfig | undefined
  try {
    plugin = configured ? parsePluginConfig(configured.config) : pluginConfigFromEnv(env)
    const source = configured ? `the dsh-slack entry's config in ${basename(file)}` : ours.length > 0 ? 'the environment (its entry has no config)' : 'the environment (no dsh-slack entry here: from `dsh plugin add dsh-slack`, its own layer inserts it)'
    results.push(pass('plugin config', `${isServiceConfig(plugin) ? `asks through ${plugin.serviceUrl}` : 'connects to Slack itself'}; settings from ${source}`))
  } catch (error) {
    results.push(fail('plugin config', error instanceof Error ? error.message : String(error), 'fix that setting (docs/harness-plugin.md lists the settings); until then runs of this profile go on without dsh-slack: questions get NO_PROVIDER and tool approvals are refused'))
  }

  if (profile === 'headless' && !entries.some((entry) => entry.name === '@deepseek-ai/dsh-tool-ask-user')) {
    results.push(fail('ask tool', 'this headless profile does not insert @deepseek-ai/dsh-tool-ask-user: the model cannot ask questions (plan reviews and tool approvals still reach Slack)', 'add "- insert: [{ id: tool-ask-user, name: \'@deepseek-ai/dsh-tool-ask-user\' }]" to the profile\'s cordis.patch.yml'))
  }

  results.push(checkNode(plugin))
  if (!plugin) return { results }
  if (isServiceConfig(plugin)) return { results, viaService: plugin.serviceUrl }
  const { botToken, appToken, signingSecret, channel, slackApiUrl, codeChannels } = plugin
  // The plugin's codeChannels setting (or DSH_SLACK_CODE_CHANNELS, for an entry without config) decides the code-channels line, as it decides the plugin's plan reviews.
  return {
    results,
    slack: { botToken, ...(appToken ? { appToken } : {}), ...(signingSecret ? { signingSecret } : {}), ...(channel ? { channel } : {}), ...(slackApiUrl ? { slackApiUrl } : {}), ...(codeChannels ? { codeChannels } : {}) },
    codeChannelsOffBy: configured ? 'codeChannels: off in the plugin config' : 'DSH_SLACK_CODE_CHANNELS=off',
  }
}

/** The harness runs dsh-slack on its own Node: run doctor with that Node to check that it opens SQLite as the harness will. */
function checkNode(plugin: SlackPluginConfig | undefined): CheckResult {
  const needsSqlite = plugin !== undefined && !isServiceConfig(plugin) && !/^postgres(ql)?:\/\//.test(plugin.state ?? '')
  if (needsSqlite) {
    try {
      new SqliteDatabase(':memory:').close()
    } catch (error) {
      return fail('Node', `SQLite does not open in Node ${process.versions.node}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, `run the harness and doctor with Node ${HARNESS_NODE}, or set state to a postgres:// URL`)
    }
  }
  if (!isSupportedNode(process.versions.node)) {
    return fail('Node', `this is Node ${process.versions.node}; the harness needs ${HARNESS_NODE}`, 'run `dsh-slack doctor --harness …` with the Node the harness runs on, so the check loads dsh-slack as the harness will')
  }
  return pass('Node', `Node ${process.versions.node} satisfies the harness (${HARNESS_NODE})${needsSqlite ? ' and opens SQLite (node:sqlite)' : ''}`)
}
