import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AskLifecycle } from '../../src/bridge/ask-lifecycle.js'
import { LATE_EVENTS_KEPT, LateEvents } from '../../src/bridge/late-events.js'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import type { AskEvent, NewAskEvent } from '../../src/store/team-records.js'
import { recordingLogger } from '../support/e2e.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

/** What node-postgres throws while the database is down. */
const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })

/** A store's appendEvent as the trail sees it: takes events, or refuses while `down`. */
function trail() {
  const appended: NewAskEvent[] = []
  const state = {
    appended,
    down: false,
    refuse: undefined as Error | undefined,
    append: async (event: NewAskEvent) => {
      if (state.refuse) throw state.refuse
      if (state.down) throw connectionRefused()
      appended.push(event)
    },
  }
  return state
}

const reminded = (askId: string, at: number): NewAskEvent => ({ askId, type: 'reminded', at })

const pending: LateEvents[] = []
afterEach(async () => {
  await Promise.all(pending.splice(0).map((events) => events.stop()))
})

function lateEvents(store: ReturnType<typeof trail>, logger = recordingLogger()) {
  const events = new LateEvents({ append: store.append, logger, retryFirstMs: 10, retryMaxMs: 40 })
  pending.push(events)
  return { events, logger }
}

describe('audit events while the store is unreachable', () => {
  it('are appended at once while the store takes them', async () => {
    const store = trail()
    const { events, logger } = lateEvents(store)
    await events.record(reminded('a1', 1))
    expect(store.appended).toEqual([reminded('a1', 1)])
    expect(events.size).toBe(0)
    expect(logger.lines).toEqual([])
  })

  it('wait in order and are appended once it is back, each with its own time, with a line when kept and one when recorded', async () => {
    const store = trail()
    const { events, logger } = lateEvents(store)
    store.down = true
    await events.record(reminded('a1', 1))
    await events.record(reminded('a2', 2))
    await events.record(reminded('a3', 3))
    expect(store.appended).toEqual([])
    expect(events.size).toBe(3)

    store.down = false
    await vi.waitFor(() => expect(events.size).toBe(0), { timeout: 2_000, interval: 5 })

    expect(store.appended).toEqual([reminded('a1', 1), reminded('a2', 2), reminded('a3', 3)])
    expect(logger.lines).toHaveLength(2)
    expect(logger.lines[0]).toMatch(/^warn the store is unreachable: the audit trail's events are kept here .*ask a1's reminded, connect ECONNREFUSED/)
    expect(logger.lines[1]).toBe('info the store is back: 3 audit events kept meanwhile are recorded')
  })

  it('keep their order when a new event comes while older ones still wait', async () => {
    const store = trail()
    const { events } = lateEvents(store)
    store.down = true
    await events.record(reminded('a1', 1))
    store.down = false
    // Before the retry's timer: the new event must not jump the queue.
    await events.record(reminded('a2', 2))
    expect(store.appended.map((event) => event.askId)).toEqual(['a1', 'a2'])
  })

  it('are tried again with a growing pause while the store stays down', async () => {
    const store = trail()
    let tries = 0
    const events = new LateEvents({
      append: async (event) => {
        tries++
        return store.append(event)
      },
      logger: recordingLogger(),
      retryFirstMs: 20,
      retryMaxMs: 80,
    })
    pending.push(events)
    store.down = true
    await events.record(reminded('a1', 1))
    await new Promise((resolve) => setTimeout(resolve, 250))
    // The first try, then after 20, 40, 80 and 80 ms more (a loaded machine may be a try behind): a handful, not one every moment.
    expect(tries).toBeGreaterThanOrEqual(3)
    expect(tries).toBeLessThanOrEqual(6)
  })

  it('are not retried when the store refuses them for another reason: that is logged, as before', async () => {
    const store = trail()
    const { events, logger } = lateEvents(store)
    store.refuse = new Error('value too long for type character varying(64)')
    await events.record(reminded('a1', 1))
    expect(events.size).toBe(0)
    expect(logger.lines).toEqual(['error ask a1: could not record its reminded event: value too long for type character varying(64)'])
  })

  it('get one last try at stop; what the store still cannot take is named in one line', async () => {
    const store = trail()
    const { events, logger } = lateEvents(store)
    store.down = true
    await events.record(reminded('a1', 1))
    await events.record(reminded('a2', 2))
    await events.stop()
    expect(events.size).toBe(0)
    expect(logger.lines.at(-1)).toBe('error stopping with 2 audit events the store never took (asks a1, a2): they are not in the trail')

    // Stopped: a late event is not kept for a retry that will never come.
    await events.record(reminded('a3', 3))
    expect(events.size).toBe(0)
    expect(logger.lines.at(-1)).toMatch(/^error ask a3: could not record its reminded event: connect ECONNREFUSED/)
  })

  it('do not hold the stop when the store hangs instead of refusing', async () => {
    const store = trail()
    let hang = false
    const logger = recordingLogger()
    const events = new LateEvents({ append: (event) => (hang ? new Promise(() => {}) : store.append(event)), logger, retryFirstMs: 60_000 })
    store.down = true
    await events.record(reminded('a1', 1))
    hang = true
    // Resolves (the store's append never does): a hang would fail the test on its timeout.
    await events.stop()
    expect(logger.lines.at(-1)).toBe('error stopping with 1 audit event the store never took (asks a1): it is not in the trail')
  })

  it('are kept up to a bound, the oldest dropped and counted', async () => {
    const store = trail()
    const { events, logger } = lateEvents(store)
    store.down = true
    for (let i = 0; i <= LATE_EVENTS_KEPT; i++) await events.record(reminded(`a${i}`, i))
    expect(events.size).toBe(LATE_EVENTS_KEPT)

    store.down = false
    await vi.waitFor(() => expect(events.size).toBe(0), { timeout: 5_000, interval: 5 })
    expect(store.appended[0]).toEqual(reminded('a1', 1))
    expect(store.appended).toHaveLength(LATE_EVENTS_KEPT)
    expect(logger.lines.at(-1)).toBe(`info the store is back: ${LATE_EVENTS_KEPT} audit events kept meanwhile are recorded; 1 older one was dropped (more than ${LATE_EVENTS_KEPT} waited)`)
  })
})

/** A memory store whose database goes away: every call to the audit trail fails while `down`. */
class StoreThatGoesDown extends MemoryAskStore {
  down = false
  override async appendEvent(event: NewAskEvent): Promise<AskEvent> {
    if (this.down) throw connectionRefused()
    return super.appendEvent(event)
  }
}

describe('the lifecycle during a store outage', () => {
  const lifecycles: AskLifecycle[] = []
  afterEach(async () => {
    await Promise.all(lifecycles.splice(0).map((lifecycle) => lifecycle.stop()))
  })

  it('records a reminder made while the store was away once it is back, with the time it was made and the ask\'s rule', async () => {
    const store = new StoreThatGoesDown()
    const logger = recordingLogger()
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service', logger })
    lifecycles.push(lifecycle)
    const record = await lifecycle.open({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })

    const metrics = new ServiceMetrics()
    metrics.attach({ openAsks: async () => 0, postsWaiting: () => new Map(), storeUp: async () => !store.down, auditEventsWaiting: () => lifecycle.auditEventsWaiting() })

    store.down = true
    const at = Date.now()
    await lifecycle.recordEvent({ askId: record.id, type: 'reminded', at, detail: { channel: 'C1', ts: '1.2' } })
    expect((await store.events(record.id)).map((event) => event.type)).toEqual(['posted'])
    expect(await metrics.render()).toMatch(/^dsh_slack_audit_events_waiting 1$/m)

    store.down = false
    await vi.waitFor(async () => expect((await store.events(record.id)).map((event) => event.type)).toEqual(['posted', 'reminded']), { timeout: 5_000, interval: 20 })
    const late = (await store.events(record.id))[1]!
    expect(late).toMatchObject({ askId: record.id, type: 'reminded', at, rule: record.rule })
    expect(logger.lines.filter((line) => line.includes('audit'))).toHaveLength(2)
    expect(await metrics.render()).toMatch(/^dsh_slack_audit_events_waiting 0$/m)
  })
})
