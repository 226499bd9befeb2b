import { AskLifecycle, type LifecycleOptions } from '../../src/bridge/ask-lifecycle.js'
import { silentLogger } from '../../src/log/logger.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'

/** A lifecycle for unit tests: no pacing, English, the agents' channel by default, a silent log. */
export function testLifecycle(options: Pick<LifecycleOptions, 'store' | 'slack' | 'owner'> & Partial<LifecycleOptions>): AskLifecycle {
  return new AskLifecycle({ pacer: new ChannelPacer({ intervalMs: 0 }), settings: { locale: 'en' }, defaultChannel: 'C0AGENTS', logger: silentLogger, ...options })
}
