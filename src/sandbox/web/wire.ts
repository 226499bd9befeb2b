/**
 * What the page's endpoints send and take, as types only: the server
 * (`snapshot.ts`, `act.ts`) and the browser code (`client/`) both import
 * them, so this file imports nothing (the client is type-checked without
 * Node's types).
 */

type Obj = Record<string, unknown>

/** One message (or ephemeral message) on the page. */
export interface PageMessage {
  ts: string
  threadTs?: string
  user: string
  text: string
  blocks?: Obj[]
  files?: Obj[]
  edited: boolean
  replyCount?: number
  /** Seen by the acting user only ("Only visible to you"). */
  ephemeral: boolean
  /** The acting user's `state.values` for this message's inputs. */
  state: Record<string, Record<string, Obj>>
}

/** The acting user's open modal (top of their stack). */
export interface PageModal {
  id: string
  title: unknown
  submit?: unknown
  close?: unknown
  blocks: Obj[]
  /** Errors under inputs from a `response_action: errors` ack, by block_id. */
  errors: Record<string, string>
  state: Record<string, Record<string, Obj>>
  /** How many views are stacked under this one. */
  depth: number
}

/** The acting user's Home tab of the app, as the app last published it. */
export interface PageHome {
  id: string
  blocks: Obj[]
  state: Record<string, Record<string, Obj>>
}

/** What `GET /web/state` answers: the workspace as one user sees it. */
/** A code channel's context bar and canvas tabs, as the shown channel's members see them. */
export interface PageCodeChannel {
  archived: boolean
  contextBar: { label: string; icon?: string }[]
  canvases: {
    id: string
    label: string
    /** `comment`: members comment, only the agent writes. */
    access: string
    sections: { id: string; markdown: string; comments: { userName: string; text: string; quoted: string }[] }[]
  }[]
}

export interface PageSnapshot {
  app: { botUserId: string; botName: string; teamName: string }
  me: { id: string; name: string; realName: string }
  users: { id: string; name: string; realName: string; isBot: boolean }[]
  userGroups: { id: string; handle: string }[]
  channels: { id: string; name: string; isIm: boolean; isPrivate: boolean; members: number }[]
  /** The channel shown (the one asked for when the user can see it, else their first). */
  channel: string
  messages: PageMessage[]
  modal: PageModal | null
  /** Whether the app has a Home tab at all (it can be turned off). */
  homeEnabled: boolean
  /** The app's Home tab for this user; null until the app published one. */
  home: PageHome | null
  samples: string[]
  /** The shown channel's code-channel parts, when it is a code channel. */
  codeChannel: PageCodeChannel | null
}

/** A message the page acts on (`ephemeral` for one only this user sees), the open modal, or the app's Home tab. */
export type PageTarget = 'modal' | 'home' | { channel: string; ts: string; ephemeral?: boolean }

/** A `POST /web/act` body (checked again on the server by `act.ts`'s schema). */
export type PageAction =
  | { action: 'comment'; user: string; canvasId: string; quotedText: string; text: string }
  | { action: 'click'; user: string; target: PageTarget; label: string; actionId?: string }
  | { action: 'choose' | 'toggle'; user: string; target: PageTarget; actionId: string; option: string; query?: string }
  | { action: 'suggest'; user: string; target: PageTarget; actionId: string; query: string }
  | { action: 'fill'; user: string; blockId: string; value: string }
  | { action: 'submit'; user: string; fills?: Record<string, string> }
  | { action: 'close'; user: string }
  | { action: 'leave'; user: string }
  | { action: 'open-home'; user: string }
  | { action: 'reply'; user: string; target: { channel: string; ts: string }; text: string }

/** What `POST /web/act` answers: `options` for `suggest`. */
export interface ActResult {
  ok: true
  options?: { text: string; value: string }[]
}

/** Every refusal of a page endpoint. */
export interface PageError {
  error: { code: string; message: string }
}
