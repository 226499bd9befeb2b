/**
 * A message's permalink in Slack's own form, `<workspace url>archives/<channel>/p<ts without the dot>`
 * (what chat.getPermalink answers for a message in a channel or DM), built
 * from the workspace URL that `auth.test` gave once at start-up: no Web API
 * call per ask. Undefined when the URL is not one we can build on.
 */
export function messagePermalink(workspaceUrl: string | undefined, channel: string, ts: string): string | undefined {
  if (workspaceUrl === undefined || !/^https?:\/\//.test(workspaceUrl) || !/^\d+\.\d+$/.test(ts)) return undefined
  const base = workspaceUrl.endsWith('/') ? workspaceUrl : `${workspaceUrl}/`
  return `${base}archives/${encodeURIComponent(channel)}/p${ts.replace('.', '')}`
}
