import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AckReceipt } from '../../src/slack-app/handlers/ack-receipt.js'
import { recordingLogger } from '../support/e2e.js'

function receipt(options: { failedAck?: boolean } = {}) {
  const sent: string[] = []
  const logger = recordingLogger()
  const ack = new AckReceipt({
    ack: async () => void sent.push('ack'),
    ...(options.failedAck ? { ackFailed: async () => void sent.push('ack failed') } : {}),
    withinMs: 2500,
    logger,
    what: 'a click from U1',
  })
  return { ack, sent, logger }
}

describe('an interaction’s ack receipt', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('acknowledges once, when the write is recorded, however often it is told', async () => {
    const { ack, sent } = receipt()

    ack.recorded()
    ack.recorded()
    await ack.done()
    await vi.advanceTimersByTimeAsync(5000)

    expect(sent).toEqual(['ack'])
  })

  it('acknowledges at the deadline when nothing was recorded by then, and says so in the log', async () => {
    const { ack, sent, logger } = receipt()

    await vi.advanceTimersByTimeAsync(2499)
    const before = [...sent]
    await vi.advanceTimersByTimeAsync(1)

    expect(before).toEqual([])
    expect(sent).toEqual(['ack'])
    expect(logger.lines).toEqual(['warn a click from U1: not recorded within 2500 ms; acknowledged before its write, so Slack shows it as done'])
  })

  it('acknowledges when the handler ends without recording anything', async () => {
    const { ack, sent } = receipt()

    await ack.done()

    expect(sent).toEqual(['ack'])
  })

  it('answers a failure with the failure ack while the ack is still to go, and says the person was told', async () => {
    const { ack, sent } = receipt({ failedAck: true })

    const told = ack.failed()
    await ack.done()

    expect(told).toBe(true)
    expect(sent).toEqual(['ack failed'])
  })

  it('leaves a failure to be told otherwise once the ack has gone, or when the interaction has no failure ack', async () => {
    const late = receipt({ failedAck: true })
    const click = receipt()

    late.ack.recorded()

    expect(late.ack.failed()).toBe(false)
    expect(click.ack.failed()).toBe(false)
    await click.ack.done()
    expect(late.sent).toEqual(['ack'])
    expect(click.sent).toEqual(['ack'])
  })
})
