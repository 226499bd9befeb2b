import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * One scripted model turn: plain text, or tool calls (each gets its own call
 * id, unlike the harness's own mock server, whose calls all share one id).
 */
export type ScriptedReply = { text: string } | { toolCalls: { name: string; arguments: unknown }[] }

/** A chat-completions request as the harness sent it: what the model "received". */
export interface ModelRequest {
  messages: { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }[]
  tools?: { function?: { name?: string } }[]
}

export interface ScriptedModel {
  /** `DEEPSEEK_BASE_URL` for the harness (`…/v1`). */
  readonly baseUrl: string
  readonly requests: ModelRequest[]
  /** The ids of the tool calls the model made, in order. */
  readonly callIds: string[]
  /** Queues replies; a request with nothing queued gets a short closing text. */
  script(...replies: ScriptedReply[]): void
  /** Drops replies a previous test left unused. */
  reset(): void
  /** The tool result the harness sent back for a call, as text. */
  toolResult(callId: string): string | undefined
  close(): Promise<void>
}

/**
 * A scripted OpenAI-compatible chat-completions server (streaming SSE, the
 * shape the harness's DeepSeek provider reads). It is the only stand-in in
 * the real-harness suite besides Slack's: the harness, its plugins and its
 * tool loop are real.
 */
export async function startScriptedModel(): Promise<ScriptedModel> {
  const queue: ScriptedReply[] = []
  const requests: ModelRequest[] = []
  const callIds: string[] = []

  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
      return
    }
    const body = JSON.parse(await readBody(req)) as ModelRequest
    requests.push(body)
    const reply = queue.shift() ?? { text: 'Done.' }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`)
    if ('text' in reply) {
      send({ choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] })
      send({ choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 3 } })
    } else {
      reply.toolCalls.forEach((call, index) => {
        const id = `call-${callIds.length + 1}`
        callIds.push(id)
        const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
        send({ choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: args } }] }, finish_reason: null }] })
      })
      send({ choices: [{ index: 0, delta: { content: '' }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 3, completion_tokens: 3 } })
    }
    res.end('data: [DONE]\n\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    callIds,
    script: (...replies) => void queue.push(...replies),
    reset: () => void queue.splice(0),
    toolResult(callId) {
      for (const request of requests) {
        const message = request.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)
        if (message) return typeof message.content === 'string' ? message.content : JSON.stringify(message.content)
      }
      return undefined
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
