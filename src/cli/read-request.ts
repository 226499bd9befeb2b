import { readFile } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { UsageError } from './usage-error.js'

/**
 * The request JSON of `dsh-slack ask`: from FILE, or from stdin for `-` or
 * no FILE. Only JSON syntax is checked here; the service (or the bridge)
 * checks the shape and answers with the seam's codes.
 */
export async function readRequest(file: string | undefined, stdin: Readable): Promise<Record<string, unknown>> {
  const from = file === undefined || file === '-' ? 'stdin' : file
  let text: string
  try {
    text = from === 'stdin' ? await readAll(stdin) : await readFile(from, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${from}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${from} is not valid JSON (${(error as Error).message}); expected e.g. {"questions": [{"id": "q1", "question": "Ship it?"}]}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${from} must hold a JSON object like {"questions": [...]}`)
  }
  return value as Record<string, unknown>
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
