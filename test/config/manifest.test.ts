import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

interface Manifest {
  display_information: { name: string }
  features: { bot_user: { display_name: string }; app_home?: { home_tab_enabled?: boolean; messages_tab_enabled?: boolean }; code_channels?: { enabled?: boolean; slash_command_url?: string } }
  oauth_config: { scopes: { bot: string[]; user?: string[] } }
  settings: {
    socket_mode_enabled: boolean
    interactivity: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string }
    event_subscriptions?: { request_url?: string; bot_events?: string[] }
  }
}

const text = await readFile(new URL('../../manifest.yml', import.meta.url), 'utf8')
const manifest = parse(text) as Manifest

describe('manifest.yml', () => {
  it('enables Slack Code\'s code_channels feature, as Slack says an app using code channels must, with no slash command URL (it registers no agent commands)', () => {
    expect(manifest.features.code_channels).toEqual({ enabled: true })
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining(['code_channels:manage', 'canvases:write']))
  })

  it('names the app and its bot dsh-slack', () => {
    expect(manifest.display_information.name).toBe('dsh-slack')
    expect(manifest.features.bot_user.display_name).toBe('dsh-slack')
  })

  it('turns on Socket Mode and interactivity, so the app works without a public URL', () => {
    expect(manifest.settings.socket_mode_enabled).toBe(true)
    expect(manifest.settings.interactivity.is_enabled).toBe(true)
  })

  it('sets no request URLs in Socket Mode, but documents both for HTTP mode at /slack/events', () => {
    expect(manifest.settings.interactivity.request_url).toBeUndefined()
    expect(manifest.settings.interactivity.message_menu_options_url).toBeUndefined()
    expect(manifest.settings.event_subscriptions?.request_url).toBeUndefined()
    expect(text.match(/#\s*request_url: https:\/\/\S+\/slack\/events/g)).toHaveLength(2)
    expect(text).toMatch(/#\s*message_menu_options_url: https:\/\/\S+\/slack\/events/)
  })

  it('asks for exactly the bot scopes dsh-slack uses', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(
      ['canvases:write', 'channels:history', 'channels:read', 'chat:write', 'chat:write.public', 'code_channels:manage', 'files:write', 'groups:history', 'groups:read', 'im:read', 'im:write', 'usergroups:read', 'users:read'].sort(),
    )
  })

  it('asks for no user scopes: the app never acts as a person', () => {
    expect(manifest.oauth_config.scopes.user).toBeUndefined()
  })

  it('explains every scope with a comment on the line above', () => {
    const lines = text.split('\n')
    const unexplained = manifest.oauth_config.scopes.bot.filter((scope) => {
      const index = lines.findIndex((line) => line.trim() === `- ${scope}`)
      return index < 1 || !lines[index - 1]!.trim().startsWith('#')
    })

    expect(unexplained).toEqual([])
  })

  it('shows the app’s Messages tab, where questions sent as DMs appear', () => {
    expect(manifest.features.app_home?.messages_tab_enabled).toBe(true)
  })

  it('turns on the Home tab and subscribes to app_home_opened, the one event it draws the tab on', () => {
    expect(manifest.features.app_home?.home_tab_enabled).toBe(true)
    expect(manifest.settings.event_subscriptions?.bot_events).toContain('app_home_opened')
  })

  it('subscribes to the channel message events thread replies come as, with the history scope each needs, each with a comment', () => {
    const lines = text.split('\n')
    const explained = (item: string) => lines[lines.findIndex((line) => line.trim() === `- ${item}`) - 1]!.trim().startsWith('#')

    expect(manifest.settings.event_subscriptions?.bot_events).toEqual(['app_home_opened', 'message.channels', 'message.groups'])
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining(['channels:history', 'groups:history']))
    expect(['app_home_opened', 'message.channels', 'message.groups'].filter((event) => !explained(event))).toEqual([])
  })
})
