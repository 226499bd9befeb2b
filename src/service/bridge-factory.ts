import type { SlackBridge, SlackBridgeOptions } from '../bridge/types.js'

/** Starts a bridge; the service and the CLI take one so tests can pass a fake. */
export type CreateBridge = (options: SlackBridgeOptions) => Promise<SlackBridge>

/** The real `createSlackBridge`, loaded on first use: `--help` and `doctor` need not load Bolt. */
export async function loadCreateSlackBridge(): Promise<CreateBridge> {
  const { createSlackBridge } = await import('../slack-app/create-slack-bridge.js')
  return createSlackBridge
}
