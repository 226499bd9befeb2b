import { setTimeout as sleep } from 'node:timers/promises'
import type { AskStateResponse } from '../http/ask-response.js'
import { TIMING } from '../slack/timing.js'
import type { AskOutcome } from './ask-outcome.js'
import { INVALID_REQUEST_CODES } from './ask-outcome.js'

/**
 * While the service cannot be reached (a restart: it keeps open asks), the
 * CLI keeps asking, a little less often each time, for this long.
 */
const RECONNECT = { firstDelayMs: 500, maxDelayMs: 10_000, giveUpAfterMs: 5 * 60_000 } as const

export interface AskViaServiceOptions {
  /** Base URL of a running `dsh-slack serve`, e.g. http://127.0.0.1:3000. */
  url: string
  apiKey?: string
  /** The request JSON as read; `channel` and `timeoutMs` override its own. */
  request: Record<string, unknown>
  channel?: string
  timeoutMs?: number
  /** Ctrl-C: withdraw the ask (DELETE) and stop. */
  interrupt: AbortSignal
  /** Progress lines for a person (stderr). */
  log: (line: string) => void
}

/** A failure that is not the ask's outcome: the service is unreachable or refuses us. */
export class ServiceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServiceError'
  }
}

/** `dsh-slack ask --url`: POST /v1/asks, long-poll GET /v1/asks/:id until settled. */
export async function askViaService(options: AskViaServiceOptions): Promise<AskOutcome> {
  const base = options.url.replace(/\/+$/, '')
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
  const body = { ...options.request }
  if (options.channel !== undefined) body.channel = options.channel
  if (options.timeoutMs !== undefined) body.timeoutMs = options.timeoutMs

  let created: Response
  try {
    created = await fetch(`${base}/v1/asks`, { method: 'POST', headers, body: JSON.stringify(body) })
  } catch (error) {
    throw new ServiceError(`cannot reach ${base} (${causeOf(error)}): is \`dsh-slack serve\` running there?`)
  }
  const createdBody = (await created.json().catch(() => ({}))) as { id?: string; channel?: string; permalink?: string; error?: { code: string; message: string } }
  if (created.status !== 201 || typeof createdBody.id !== 'string') {
    const error = createdBody.error ?? { code: `HTTP_${created.status}`, message: `the service answered ${created.status}` }
    if (created.status === 400 || created.status === 413 || INVALID_REQUEST_CODES.includes(error.code)) return { kind: 'failed', status: 'invalid', ...error }
    throw new ServiceError(`${error.code}: ${error.message}`)
  }
  const id = createdBody.id
  options.log(`asked in ${createdBody.channel ?? 'Slack'}${createdBody.permalink ? ` (${createdBody.permalink})` : ''}; waiting for an answer…`)

  let failingSince: number | undefined
  let delay: number = RECONNECT.firstDelayMs
  while (!options.interrupt.aborted) {
    try {
      const response = await fetch(`${base}/v1/asks/${encodeURIComponent(id)}?wait=${TIMING.longPollMaxSeconds}`, { headers, signal: options.interrupt })
      if (response.status === 404) throw new ServiceError(`the service no longer knows ask ${id}`)
      if (response.status !== 200) throw new Error(`the service answered ${response.status}`)
      const state = (await response.json()) as AskStateResponse
      failingSince = undefined
      delay = RECONNECT.firstDelayMs
      if (state.status === 'pending') continue
      if (state.status === 'answered' && state.answer) return { kind: 'answered', answer: state.answer }
      const error = state.error ?? { code: state.status.toUpperCase(), message: `the ask ended ${state.status}` }
      return { kind: 'failed', status: state.status === 'answered' ? 'failed' : state.status, code: error.code, message: error.message }
    } catch (error) {
      if (options.interrupt.aborted) break
      if (error instanceof ServiceError) throw error
      failingSince ??= Date.now()
      if (Date.now() - failingSince > RECONNECT.giveUpAfterMs) throw new ServiceError(`lost ${base} (${causeOf(error)}); ask ${id} may still be open`)
      options.log(`cannot reach ${base} (${causeOf(error)}); retrying…`)
      await sleep(delay, undefined, { signal: options.interrupt }).catch(() => undefined)
      delay = Math.min(delay * 2, RECONNECT.maxDelayMs)
    }
  }

  // Ctrl-C: withdraw the question so the message says so, then report it.
  try {
    const response = await fetch(`${base}/v1/asks/${encodeURIComponent(id)}`, { method: 'DELETE', headers })
    const state = (await response.json()) as { status?: string }
    options.log(state.status === 'aborted' ? `withdrew ask ${id}` : `ask ${id} was already ${state.status}`)
  } catch (error) {
    options.log(`could not withdraw ask ${id} (${causeOf(error)}); it stays open in Slack`)
  }
  return { kind: 'failed', status: 'aborted', code: 'ASK_ABORTED', message: 'interrupted: the question was withdrawn' }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}
