import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { ApiKeyEntry } from '../policy/operator-policy.js'
import { ApiError } from './api-error.js'

const digest = (text: string) => createHash('sha256').update(text).digest()

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer realm="dsh-slack"' })
}

function bearerOf(req: IncomingMessage): string {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')
  return match?.[1]?.trim() ?? ''
}

/**
 * Refuses a request without `Authorization: Bearer <key>`. Both sides are
 * hashed first so the comparison takes the same time whatever the length
 * or the first differing byte of a guess.
 */
export function checkBearer(req: IncomingMessage, apiKey: string | undefined): void {
  if (apiKey === undefined) return
  const given = bearerOf(req)
  if (given === '' || !timingSafeEqual(digest(given), digest(apiKey))) {
    throw unauthorized(given === '' ? 'this service needs an API key: send "Authorization: Bearer <DSH_SLACK_API_KEY>"' : 'the API key is not the one this service was started with (DSH_SLACK_API_KEY)')
  }
}

/** Each policy's keys by digest, built once per policy (a reload brings a new array). */
const byDigest = new WeakMap<readonly ApiKeyEntry[], Map<string, ApiKeyEntry>>()

function keysByDigest(keys: readonly ApiKeyEntry[]): Map<string, ApiKeyEntry> {
  let index = byDigest.get(keys)
  if (!index) {
    index = new Map()
    // The first key to name a digest keeps it (the policy file refuses a digest under two keys).
    for (const key of keys) for (const hash of key.secretSha256) if (!index.has(hash)) index.set(hash, key)
    byDigest.set(keys, index)
  }
  return index
}

/**
 * The key a request carries, checked against the operator's named keys
 * (kept as SHA-256 digests; any of a key's digests is valid, so two
 * secrets work side by side during a rotation). The presented secret is
 * hashed and the digest looked up: the time a look-up takes can at most
 * tell something about a digest, and a digest does not give the secret
 * back. One look-up, not a comparison per key: a policy of 20,000 keys
 * cost every request about 20 ms when each digest was compared.
 */
export function keyOf(req: IncomingMessage, keys: readonly ApiKeyEntry[]): ApiKeyEntry {
  const given = bearerOf(req)
  if (given === '') throw unauthorized('this service needs an API key: send "Authorization: Bearer <key>" (DSH_SLACK_API_KEY, or one of the keys of DSH_SLACK_API_KEYS or the policy file)')
  const found = keysByDigest(keys).get(digest(given).toString('hex'))
  if (found === undefined) throw unauthorized('the API key is not one this service knows (DSH_SLACK_API_KEY, DSH_SLACK_API_KEYS or the policy file\'s keys)')
  return found
}
