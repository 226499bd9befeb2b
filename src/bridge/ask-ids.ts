import { randomFillSync } from 'node:crypto'

const ASK_ID_BYTES = 12
/** Random bytes for the next 128 ask ids: one call into the CSPRNG per 128 asks instead of one each. */
const askIdPool = Buffer.alloc(ASK_ID_BYTES * 128)
let askIdPoolAt = askIdPool.length

/** Ask ids go into action ids: url-safe, unguessable, short. */
export function newAskId(): string {
  if (askIdPoolAt + ASK_ID_BYTES > askIdPool.length) {
    randomFillSync(askIdPool)
    askIdPoolAt = 0
  }
  const id = askIdPool.toString('base64url', askIdPoolAt, askIdPoolAt + ASK_ID_BYTES)
  askIdPoolAt += ASK_ID_BYTES
  return id
}
