import type { KeyAccess } from '../policy/operator-policy.js'
import type { AskRecord } from '../store/ask-record.js'

/**
 * Who sent a request, as far as ownership goes: the API key by name (absent
 * on a service without keys, loopback only) and how far it reaches.
 */
export interface Caller {
  /** The key's name; absent: the service has no keys. */
  key?: string
  access: KeyAccess
}

/**
 * Whether `caller` may read (list, get, wait on, read the events of) the
 * ask. An ask belongs to the key that created it; an ask no key created
 * (the library's, the relay's, or one from before keys were named) belongs
 * to no key, so only a key that reads every ask sees it.
 */
export function mayRead(caller: Caller, record: Pick<AskRecord, 'apiKey'>): boolean {
  return caller.access.read === 'all' || (caller.key !== undefined && record.apiKey === caller.key)
}

/** Whether `caller` may withdraw the ask: its own, or any when its key withdraws every ask. */
export function mayWithdraw(caller: Caller, record: Pick<AskRecord, 'apiKey'>): boolean {
  return caller.access.withdraw === 'all' || (caller.key !== undefined && record.apiKey === caller.key)
}

/**
 * The key a list is narrowed to: the caller's own, unless it reads every
 * ask (then the `?key=` asked for, if any). `null`: the caller asked for
 * another key's asks, which it cannot see: an empty page, as if that key
 * had none.
 */
export function listedKey(caller: Caller, asked: string | undefined): string | undefined | null {
  if (caller.access.read === 'all') return asked
  if (caller.key === undefined || (asked !== undefined && asked !== caller.key)) return null
  return caller.key
}
