import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { PolicyFileError } from './policy-file-error.js'

/**
 * The largest policy file read: 4 MiB holds about 30,000 keys and parses
 * in about 3 s and 410 MB on an idle core. Past it the cost runs away
 * (issue 48: a 19 MB file took 82 s and 1.3 GB), so a bigger file is refused
 * before a byte of it is parsed.
 */
export const MAX_POLICY_BYTES = 4 * 1024 * 1024

/** What a file that is not a regular file is, for the refusal. */
function kindOf(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)'
  if (stat.isDirectory()) return 'a directory'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  if (stat.isSocket()) return 'a socket'
  return 'not a regular file'
}

/** How much one read takes: a 4 MiB file in 17 reads (the last finds the end, or that there is more). */
const READ_CHUNK_BYTES = 256 * 1024

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/**
 * The text of the policy file at `path`, read with bounds: a regular file
 * of at most MAX_POLICY_BYTES. It is opened without waiting (O_NONBLOCK: a
 * FIFO with no writer would otherwise block the open, and every reload
 * queued behind it) and judged by its fstat before anything is read; a file
 * that grows past the cap while read is refused too. Throws
 * `PolicyFileError`.
 */
export function readPolicyText(path: string): string {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    throw new PolicyFileError(path, undefined, undefined, `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw new PolicyFileError(path, undefined, undefined, `is ${kindOf(stat)}, not a regular file: it was not read (a policy file is a file; point DSH_SLACK_POLICY at one)`)
    if (stat.size > MAX_POLICY_BYTES) throw tooLarge(path, stat.size)
    // Read to the end, not to the size fstat gave: a file that grows while it is read is refused once it passes the cap.
    const chunks: Buffer[] = []
    let length = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES)
      const read = readSync(fd, chunk, 0, chunk.length, null)
      if (read === 0) break
      chunks.push(chunk.subarray(0, read))
      length += read
      if (length > MAX_POLICY_BYTES) throw tooLarge(path)
    }
    return Buffer.concat(chunks, length).toString('utf8')
  } catch (error) {
    if (error instanceof PolicyFileError) throw error
    throw new PolicyFileError(path, undefined, undefined, `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  } finally {
    closeSync(fd)
  }
}

/** `bytes`: the size fstat gave; absent when the read found the file larger than that (it grew, or its file system tells no size). */
function tooLarge(path: string, bytes?: number): PolicyFileError {
  return new PolicyFileError(path, undefined, undefined, `is ${bytes !== undefined ? `${megabytes(bytes)}, ` : ''}more than a policy file may be (${megabytes(MAX_POLICY_BYTES)}, about 30,000 keys): it was not read`)
}
