import type { SlackBridge, SlackBridgeOptions } from '../bridge/types.js'

/** Starts a bridge; the service and the CLI take one so tests can pass a fake. */
export type CreateBridge = (options: SlackBridgeOptions) => Promise<SlackBridge>

/** The real `createSlackBridge`. */
export async function loadCreateSlackBridge(): Promise<CreateBridge> {
  // Resolved at run time while the bridge module is being written alongside.
  const specifier = '../bridge/create-slack-bridge.js'
  const module = (await import(specifier)) as { createSlackBridge: CreateBridge }
  return module.createSlackBridge
}
