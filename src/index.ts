/**
 * dsh-slack: the user-interaction seam's provider, with Slack as its UI.
 * This file only re-exports.
 */
export { createSlackBridge } from './slack-app/create-slack-bridge.js'
export type { SlackBridge, SlackBridgeOptions, OpenAskOptions, OpenApprovalInput, SlackHealth } from './bridge/types.js'
export * from './contract/index.js'
export type { AskRecord, AskStatus, AskOwner, Settlement, PostedMessage, ApprovalRequest } from './store/ask-record.js'
export type { AskStore } from './store/ask-store.js'
export { MemoryAskStore } from './store/memory-ask-store.js'
export { SqliteAskStore } from './store/sqlite-ask-store.js'
export { ConfigError } from './config/config-error.js'
export type { Logger } from './log/logger.js'
export { consoleLogger, silentLogger } from './log/logger.js'
export { connectToService, ServiceCallError } from './client/index.js'
export type { ServiceConnection, ServiceConnectionOptions } from './client/index.js'
