import { WebClient, LogLevel } from '@slack/web-api'
import { apiBaseUrl } from '../../slack/api-base-url.js'
import { callSlack as call } from '../../slack/slack-call-error.js'
import { TIMING } from '../../slack/timing.js'
import type { DoctorSlack } from './doctor-port.js'

/**
 * `doctor`'s Slack calls through @slack/web-api: no retries and a timeout,
 * so a wrong URL or a revoked token is reported at once instead of retried
 * for minutes; a rate limit is reported too, not waited out.
 */
export function webApiDoctorPort(options: { botToken: string; appToken?: string; slackApiUrl?: string }): DoctorSlack {
  const clientOptions = {
    ...(options.slackApiUrl ? { slackApiUrl: apiBaseUrl(options.slackApiUrl) } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: TIMING.webApiTimeoutMs,
    logLevel: LogLevel.ERROR,
  }
  const bot = new WebClient(options.botToken, clientOptions)
  return {
    authTest: () =>
      call('auth.test', async () => {
        const result = await bot.auth.test()
        // @slack/web-api copies the x-oauth-scopes header into response_metadata.scopes.
        const scopes = result.response_metadata?.scopes
        return {
          ...(result.team ? { team: result.team } : {}),
          ...(result.user ? { user: result.user } : {}),
          ...(result.user_id ? { userId: result.user_id } : {}),
          ...(result.url ? { url: result.url } : {}),
          ...(scopes ? { scopes } : {}),
        }
      }),
    conversationInfo: (channel) =>
      call('conversations.info', async () => {
        const { channel: info } = await bot.conversations.info({ channel })
        return {
          ...(info?.name ? { name: info.name } : {}),
          isMember: info?.is_member === true,
          isPrivate: info?.is_private === true || info?.is_group === true,
          isArchived: info?.is_archived === true,
        }
      }),
    openDm: (user) =>
      call('conversations.open', async () => {
        const result = await bot.conversations.open({ users: user })
        return result.channel?.id ?? ''
      }),
    openSocketConnection: () =>
      call('apps.connections.open', async () => {
        if (!options.appToken) throw new Error('no app token')
        await new WebClient(options.appToken, clientOptions).apps.connections.open()
      }),
  }
}
