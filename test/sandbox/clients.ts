/** Real @slack/web-api clients pointed at the stand-in, for tests. */
import { LogLevel, WebClient, type Logger, type WebAPICallResult } from '@slack/web-api'

import type { Sandbox } from '../../src/sandbox/index.js'

/** Refusals are what these tests are about: keep the client's own error log quiet. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
}

/** A client that fails fast: no retries, 429s surface as errors. */
export function webClient(slack: Sandbox, token = slack.botToken): WebClient {
  return new WebClient(token, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, logger: silentLogger })
}

/** Slack's answer to a call, whether ok or not. */
export async function answer(promise: Promise<WebAPICallResult>): Promise<Record<string, unknown>> {
  try {
    return (await promise) as unknown as Record<string, unknown>
  } catch (error) {
    const data = (error as { data?: Record<string, unknown> }).data
    if (data) return data
    throw error
  }
}
