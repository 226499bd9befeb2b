import { describe, expect, it } from 'vitest'
import { nudgeMessage } from '../../blocks/index.js'
import { liveMentions } from '../support/messages.js'

const base = { locale: 'en', kind: 'reminder', waitedMs: 16 * 60_000 } as const

describe('nudgeMessage', () => {
  it('mentions the user and user-group ids it is given', () => {
    const message = nudgeMessage({ ...base, notify: ['U0SANDBOX01', 'S0LEADS'] })

    expect(liveMentions({ text: message.text, blocks: message.blocks as never })).toEqual(['<@U0SANDBOX01>', '<!subteam^S0LEADS>', '<@U0SANDBOX01>', '<!subteam^S0LEADS>'])
  })

  it('mentions nobody for a target that is not a user or group id, such as <!channel>', () => {
    for (const notify of [['<!channel>'], ['<!here>'], ['!channel'], ['channel'], ['<@U0SANDBOX01>'], ['U0SANDBOX01>'], ['@everyone']]) {
      const message = nudgeMessage({ ...base, kind: 'escalation', notify })

      expect(liveMentions({ text: message.text, blocks: message.blocks as never })).toEqual([])
    }
  })
})
