import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { ApiError } from './api-error.js'

/**
 * Refuses a request without `Authorization: Bearer <key>`. Both sides are
 * hashed first so the comparison takes the same time whatever the length
 * or the first differing byte of a guess.
 */
export function checkBearer(req: IncomingMessage, apiKey: string | undefined): void {
  if (apiKey === undefined) return
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')
  const given = match?.[1]?.trim() ?? ''
  const digest = (text: string) => createHash('sha256').update(text).digest()
  if (given === '' || !timingSafeEqual(digest(given), digest(apiKey))) {
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      given === '' ? 'this service needs an API key: send "Authorization: Bearer <DSH_SLACK_API_KEY>"' : 'the API key is not the one this service was started with (DSH_SLACK_API_KEY)',
      { 'www-authenticate': 'Bearer realm="dsh-slack"' },
    )
  }
}
