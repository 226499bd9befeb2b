/**
 * A plain Bolt app (no dsh-slack code) for the stand-in's end-to-end tests:
 * it posts a message with buttons, checkboxes and a modal-opening button,
 * records every payload its handlers get, and answers a modal submission
 * with `response_action: errors` when the text is "bad".
 */
import type { App } from '@slack/bolt'

export interface Received {
  actions: Record<string, unknown>[]
  views: Record<string, unknown>[]
  closed: Record<string, unknown>[]
  /** Errors a handler hit (e.g. views.open refused). */
  errors: unknown[]
}

export const MODAL_CALLBACK = 'answer_modal'

export function demoMessage(): { text: string; blocks: Record<string, unknown>[] } {
  return {
    text: 'Ship it?',
    blocks: [
      { type: 'section', block_id: 'question', text: { type: 'mrkdwn', text: '*Ship it?*' } },
      {
        type: 'actions',
        block_id: 'choices',
        elements: [
          { type: 'button', action_id: 'approve', text: { type: 'plain_text', text: 'Approve' }, value: 'yes', style: 'primary' },
          { type: 'button', action_id: 'open_modal', text: { type: 'plain_text', text: 'Other…' }, value: 'other' },
        ],
      },
      {
        type: 'actions',
        block_id: 'picks',
        elements: [
          {
            type: 'checkboxes',
            action_id: 'pick',
            options: ['Alpha', 'Beta', 'Gamma'].map((label, i) => ({ text: { type: 'plain_text', text: label }, value: String(i) })),
          },
          { type: 'button', action_id: 'submit', text: { type: 'plain_text', text: 'Submit' }, value: 'submit' },
        ],
      },
    ],
  }
}

function modal(): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: MODAL_CALLBACK,
    private_metadata: 'ask-1',
    notify_on_close: true,
    title: { type: 'plain_text', text: 'Your answer' },
    submit: { type: 'plain_text', text: 'Send' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [{ type: 'input', block_id: 'answer_block', label: { type: 'plain_text', text: 'Answer' }, element: { type: 'plain_text_input', action_id: 'answer' } }],
  }
}

/** Registers the demo handlers on `app` and returns what they receive. */
export function wireDemoApp(app: App): Received {
  const received: Received = { actions: [], views: [], closed: [], errors: [] }
  app.action(/^(approve|pick|submit)$/, async ({ ack, body }) => {
    await ack()
    received.actions.push(body as unknown as Record<string, unknown>)
  })
  app.action('open_modal', async ({ ack, body, client }) => {
    await ack()
    received.actions.push(body as unknown as Record<string, unknown>)
    try {
      await client.views.open({ trigger_id: (body as { trigger_id: string }).trigger_id, view: modal() as never })
    } catch (error) {
      received.errors.push(error)
    }
  })
  app.view(MODAL_CALLBACK, async ({ ack, view }) => {
    received.views.push(view as unknown as Record<string, unknown>)
    const answer = view.state.values.answer_block?.answer?.value
    if (answer === 'bad') await ack({ response_action: 'errors', errors: { answer_block: 'Say more than that' } })
    else await ack()
  })
  app.view({ callback_id: MODAL_CALLBACK, type: 'view_closed' }, async ({ ack, body }) => {
    await ack()
    received.closed.push(body as unknown as Record<string, unknown>)
  })
  return received
}
