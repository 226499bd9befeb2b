import type { View } from '@slack/types'
import { SlackCallError } from '../../src/slack/slack-call-error.js'
import type { MessageContent, MessageMetadata, SlackPort } from '../../src/slack/slack-port.js'

export interface FakeMessage {
  channel: string
  ts: string
  threadTs?: string
  metadata?: MessageMetadata
  content: MessageContent
  updates: MessageContent[]
}

/**
 * A SlackPort that records what the bridge would send. For unit tests of the
 * lifecycle and handlers; end-to-end tests use the real client on the stand-in.
 */
export class FakeSlackPort implements SlackPort {
  readonly messages: FakeMessage[] = []
  readonly ephemerals: { channel: string; user: string; text: string }[] = []
  readonly views: { triggerId: string; view: View }[] = []
  readonly files: { channel: string; threadTs: string; filename: string; content: string }[] = []
  /** Method name → Slack error to throw on the next call. */
  readonly failNext = new Map<string, string>()
  /** Home tabs published, in order. */
  readonly homes: { user: string; view: { type: 'home'; blocks: import('@slack/types').KnownBlock[] } }[] = []
  /** Conversation id → members (conversations.members). */
  members = new Map<string, string[]>()
  memberLookups = 0
  groups = new Map<string, string[]>()
  groupLookups = 0
  #seq = 0

  #maybeFail(method: string): void {
    const error = this.failNext.get(method)
    if (error) {
      this.failNext.delete(method)
      throw new SlackCallError(method, error, '')
    }
  }

  async authTest() {
    this.#maybeFail('auth.test')
    return { userId: 'UBOT' }
  }

  async postMessage(channel: string, content: MessageContent, threadTs?: string, metadata?: MessageMetadata) {
    this.#maybeFail('chat.postMessage')
    const ts = `1700000000.${String(++this.#seq).padStart(6, '0')}`
    this.messages.push({ channel, ts, content, updates: [], ...(threadTs ? { threadTs } : {}), ...(metadata ? { metadata } : {}) })
    return { channel, ts }
  }

  historyLookups = 0
  /** A Slack error every conversations.history call gets (a missing history scope stays missing). */
  historyRefusal: string | undefined

  /** Every message is in range here (the fake's ts are not times). */
  async findMessageByMetadata(channel: string, metadata: MessageMetadata) {
    this.historyLookups++
    this.#maybeFail('conversations.history')
    if (this.historyRefusal) throw new SlackCallError('conversations.history', this.historyRefusal, '')
    const found = this.messages.findLast((m) => m.channel === channel && m.threadTs === undefined && m.metadata?.eventType === metadata.eventType && Object.entries(metadata.payload).every(([key, value]) => m.metadata?.payload[key] === value))
    return found ? { channel, ts: found.ts } : undefined
  }

  async updateMessage(channel: string, ts: string, content: MessageContent) {
    this.#maybeFail('chat.update')
    const message = this.messages.find((m) => m.channel === channel && m.ts === ts)
    if (!message) throw new SlackCallError('chat.update', 'message_not_found', '')
    message.updates.push(content)
  }

  async postEphemeral(channel: string, user: string, text: string) {
    this.ephemerals.push({ channel, user, text })
  }

  async openView(triggerId: string, view: View) {
    this.#maybeFail('views.open')
    this.views.push({ triggerId, view })
  }

  async openDirectMessage(user: string) {
    this.#maybeFail('conversations.open')
    return `D${user.slice(1)}`
  }

  async permalink(channel: string, ts: string) {
    return `https://example.slack.com/archives/${channel}/p${ts.replace('.', '')}`
  }

  async uploadFile(channel: string, threadTs: string, file: { filename: string; title: string; content: string }) {
    this.files.push({ channel, threadTs, filename: file.filename, content: file.content })
  }

  async userGroupMembers(group: string) {
    this.groupLookups++
    this.#maybeFail('usergroups.users.list')
    return this.groups.get(group) ?? []
  }

  async publishHome(user: string, view: { type: 'home'; blocks: import('@slack/types').KnownBlock[] }) {
    this.#maybeFail('views.publish')
    this.homes.push({ user, view })
  }

  async conversationMembers(channel: string) {
    this.memberLookups++
    this.#maybeFail('conversations.members')
    return this.members.get(channel) ?? []
  }

  /** The message's latest content: its last update, or what was posted. */
  latest(ts: string): MessageContent | undefined {
    const message = this.messages.find((m) => m.ts === ts)
    return message && (message.updates.at(-1) ?? message.content)
  }
}
