import type { Logger } from '../log/logger.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import { toSlackCallError } from '../slack/slack-call-error.js'
import type { SlackPort } from '../slack/slack-port.js'
import type { PostPlan } from './render.js'

/** Tries per thread part (or file) before the rest of the continuation is given up. */
const ATTEMPTS = 4
/** Wait before the n-th retry of a part that failed on the way (doubling). */
const FIRST_RETRY_MS = 500

/** Failures worth another try: the network, Slack's edge, a 429 the pacer could not wait out. */
function transient(slackError: string): boolean {
  return slackError === 'request_failed' || slackError === 'ratelimited' || slackError === 'internal_error' || slackError === 'fatal_error' || slackError === 'service_unavailable' || slackError.startsWith('http_5')
}

export interface ContinuationDeps {
  slack: SlackPort
  pacer: ChannelPacer
  logger: Logger
  sleep?: (ms: number) => Promise<void>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())

/**
 * The rest of a long ask after its card is up: the thread parts, in order,
 * then the file, each in the channel's thread lane of the pacer (after any
 * new question waiting for the channel) and retried when the failure is a
 * passing one. It runs after `ask()` has its message, alongside whatever
 * happens to the ask meanwhile: an answer settles it and updates the card
 * without waiting for the thread. `stopped()` ends it between parts.
 */
export async function postContinuation(
  deps: ContinuationDeps,
  askId: string,
  posted: { channel: string; ts: string },
  plan: Pick<PostPlan, 'thread' | 'file'>,
  stopped: () => boolean = () => false,
): Promise<void> {
  const { slack, pacer, logger } = deps
  const sleep = deps.sleep ?? defaultSleep
  const steps: { what: string; method: string; send: () => Promise<unknown> }[] = plan.thread.map((part, i) => ({
    what: `thread part ${i + 1} of ${plan.thread.length}`,
    method: 'chat.postMessage',
    send: () => slack.postMessage(posted.channel, part, posted.ts),
  }))
  const file = plan.file
  if (file) steps.push({ what: `file ${file.filename}`, method: 'files.uploadV2', send: () => slack.uploadFile(posted.channel, posted.ts, file) })
  for (const [n, step] of steps.entries()) {
    if (stopped()) {
      logger.warn(`ask ${askId}: the bridge stopped before ${steps.length - n} of ${steps.length} thread posts went out`)
      return
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await pacer.run(posted.channel, step.send, 'thread')
        break
      } catch (error) {
        const failure = toSlackCallError(step.method, error)
        if (attempt < ATTEMPTS && transient(failure.slackError) && !stopped()) {
          logger.warn(`ask ${askId}: ${step.what} failed (${failure.slackError}); trying again`)
          await sleep(FIRST_RETRY_MS * 2 ** (attempt - 1))
          continue
        }
        // The question itself is up and answerable; only the rest of its text is missing from the thread.
        logger.error(`ask ${askId}: ${step.what} could not be posted (Slack error "${failure.slackError}"); ${steps.length - n - 1} later thread posts skipped`)
        return
      }
    }
  }
}
