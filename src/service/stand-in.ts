/**
 * Starts the built-in stand-in (src/sandbox) as the service and the relay
 * use it, loaded only when no bot token is set.
 */
import type { SandboxSamples } from '../sandbox/options.js'
import type { LocalSlack, LocalSlackOptions } from './local-slack.js'

export async function startStandIn(options: LocalSlackOptions & { samples?: SandboxSamples }): Promise<LocalSlack> {
  const { startSandbox, SandboxError } = await import('../sandbox/index.js')
  const { sandboxEnvOptions } = await import('../sandbox/env-options.js')
  try {
    const sandbox = await startSandbox({
      ...sandboxEnvOptions(process.env),
      port: options.port,
      ...(options.workspaceFile ? { workspaceFile: options.workspaceFile } : {}),
      ...(options.fresh ? { fresh: true } : {}),
      ...(options.samples ? { samples: options.samples } : {}),
    })
    return {
      apiUrl: sandbox.apiUrl,
      webUrl: sandbox.webUrl,
      botToken: sandbox.botToken,
      appToken: sandbox.appToken,
      channel: sandbox.defaultChannel,
      ...(sandbox.workspaceFile ? { workspaceFile: sandbox.workspaceFile } : {}),
      stop: () => sandbox.close(),
    }
  } catch (error) {
    if (error instanceof SandboxError && error.code === 'PORT_TAKEN') {
      throw new Error(`the local Slack stand-in could not start: ${error.message}. Stop the other one, or set DSH_SLACK_SANDBOX_PORT to a free port`, { cause: error })
    }
    throw error
  }
}
