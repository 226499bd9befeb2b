import type { Logger } from '../log/logger.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import type { SlackPort } from '../slack/slack-port.js'
import type { AskStore } from '../store/ask-store.js'
import type { ViewSettings } from './ask-view.js'
import type { Renderer } from './render-pool.js'

/** What the parts of an ask's life (posting it, updating its message) all work with. */
export interface AskParts {
  store: AskStore
  slack: SlackPort
  pacer: ChannelPacer
  settings: ViewSettings
  renderer: Renderer
  logger: Logger
}
