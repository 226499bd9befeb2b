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
] as const
