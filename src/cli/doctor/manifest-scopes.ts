/**
 * The bot scopes manifest.yml asks for (oauth_config.scopes.bot). `doctor`
 * reports any the token lacks; test/cli/manifest-scopes.test.ts keeps this
 * list equal to the manifest's, so the two cannot drift.
 */
export const MANIFEST_BOT_SCOPES = [
  'chat:write',
  'chat:write.public',
  'users:read',
  'usergroups:read',
  'im:write',
  'files:write',
  'channels:read',
  'groups:read',
  'im:read',
  'channels:history',
  'groups:history',
  'code_channels:manage',
  'canvases:write',
] as const

/**
 * The scopes that only thread replies need (the message.channels and
 * message.groups events): `doctor` reports them on a line of their own, so
 * an app installed before thread replies sees what it lacks and what still
 * works without them.
 */
export const THREAD_REPLY_SCOPES: readonly (typeof MANIFEST_BOT_SCOPES)[number][] = ['channels:history', 'groups:history']

/**
 * The scopes that only plan reviews in code channels need (decision 0073):
 * without them a plan review is the card and its thread, as before, and
 * `doctor` says so on a line of its own.
 */
export const CODE_CHANNEL_SCOPES: readonly (typeof MANIFEST_BOT_SCOPES)[number][] = ['code_channels:manage', 'canvases:write']
