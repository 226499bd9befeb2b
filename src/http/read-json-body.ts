import type { IncomingMessage } from 'node:http'
import { ApiError } from './api-error.js'
import { HTTP_LIMIT } from './limits.js'

/**
 * Reads a JSON request body of at most `HTTP_LIMIT.maxBodyBytes`. A body
 * declared (Content-Length) or found (chunked) to be larger is refused with
 * 413 as soon as that is known: the rest is never read or buffered.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number = HTTP_LIMIT.maxBodyBytes): Promise<unknown> {
  const tooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${maxBytes} bytes`)
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge()

  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) throw tooLarge()
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') throw new ApiError(400, 'BAD_REQUEST', 'the request body is empty; send a JSON object like {"questions": [...]}')
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new ApiError(400, 'BAD_REQUEST', `the request body is not valid JSON (${(error as Error).message})`)
  }
}
