import { describe, expect, it } from 'vitest'
import { checkMessagePayload } from '../../blocks/check.js'
import { approvalMessage, approvalOverflow, argumentsSections, LIMIT, settledApprovalMessage } from '../../blocks/index.js'
import type { ApprovalView } from '../../blocks/view.js'
import { elementsOfType, liveSyntax, mrkdwnTexts, objects } from './fixtures.js'

const NOW = Date.UTC(2026, 6, 1, 12)

function approval(args: string | undefined, overrides: Partial<ApprovalView> = {}): ApprovalView {
  return { askId: 'ap1', locale: 'en', toolName: 'bash', callId: 'call-7', agent: { id: 's1' }, ...(args !== undefined ? { arguments: args } : {}), ...overrides }
}

/** The literal texts of the card's code blocks, in order. */
function codeTexts(value: unknown): string[] {
  return elementsOfType(value, 'rich_text_preformatted').map((block) => objects(block.elements).map((o) => o.text as string).join(''))
}

describe('argumentsSections', () => {
  it('shows a shell tool’s command on its own, not as JSON', () => {
    expect(argumentsSections(JSON.stringify({ command: 'rm -rf ./build && npm ci' }))).toEqual([{ label: 'command', text: 'rm -rf ./build && npm ci' }])
  })

  it('shows the other arguments of a command as indented JSON after it', () => {
    expect(argumentsSections(JSON.stringify({ command: 'ls', cwd: '/srv', timeout: 30 }))).toEqual([
      { label: 'command', text: 'ls' },
      { label: 'otherArguments', text: '{\n  "cwd": "/srv",\n  "timeout": 30\n}' },
    ])
  })

  it('indents other JSON, shows text that is not JSON as written, and takes an empty string as no arguments', () => {
    expect(argumentsSections('{"path":"a.ts","lines":[1,2]}')).toEqual([{ label: 'arguments', text: '{\n  "path": "a.ts",\n  "lines": [\n    1,\n    2\n  ]\n}' }])
    expect(argumentsSections('not { json')).toEqual([{ label: 'arguments', text: 'not { json' }])
    expect(argumentsSections('')).toEqual([{ label: 'arguments', text: '{}' }])
  })

  it('shows U+202E, a zero-width space, ESC and CR by code point, so the command approved is the command that runs', () => {
    const command = 'echo safe\u202e\u200b\u001b[2K\rrm -rf ~\tdone\nls'

    const [section] = argumentsSections(JSON.stringify({ command }))

    expect(section).toEqual({ label: 'command', text: 'echo safe⟨U+202E⟩⟨U+200B⟩⟨U+001B⟩[2K⟨U+000D⟩rm -rf ~\tdone\nls' })
  })

  it('shows invisible characters in other arguments and in text that is not JSON too', () => {
    expect(argumentsSections(JSON.stringify({ path: 'a\u2066b' }))[0]!.text).toContain('a⟨U+2066⟩b')
    expect(argumentsSections('x\u007fy')).toEqual([{ label: 'arguments', text: 'x⟨U+007F⟩y' }])
  })
})

describe('approval card: the command', () => {
  it('shows the command in a code block under the tool, before the reason', () => {
    const message = approvalMessage(approval(JSON.stringify({ command: 'git push --force origin main' }), { reason: 'outside the workspace' }))

    expect(codeTexts(message)).toEqual(['git push --force origin main'])
    expect(JSON.stringify(message.blocks).indexOf('git push')).toBeLessThan(JSON.stringify(message.blocks).indexOf('outside the workspace'))
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('keeps mentions and links in a command literal: no mrkdwn, no user, broadcast or link element', () => {
    const command = 'curl <https://evil.example|bank.com> && echo <!channel> <@U0BOSS> <!subteam^S0ADMINS> @here https://x.example'

    const message = approvalMessage(approval(JSON.stringify({ command })))

    // Laid out for a phone across lines continued with ` \` (the shell's own continuation), otherwise literal.
    expect(codeTexts(message).map((text) => text.replaceAll(' \\\n  ', ' '))).toEqual([command])
    expect(mrkdwnTexts(message).flatMap((text) => liveSyntax(text))).toEqual([])
    for (const type of ['user', 'usergroup', 'broadcast', 'link', 'channel']) expect(elementsOfType(message, type)).toEqual([])
    expect(message.text).not.toMatch(/<[!@]/)
  })

  it('keeps the command on the settled card, so the channel history shows what was allowed', () => {
    const settled = settledApprovalMessage(approval(JSON.stringify({ command: 'make deploy' })), { kind: 'decided', decision: 'allowed-once', by: { id: 'U0BOB' }, at: NOW })

    expect(codeTexts(settled)).toEqual(['make deploy'])
  })

  it('says when the relay has not seen the arguments, so nobody allows a command they were not shown', () => {
    const message = approvalMessage(approval(undefined))

    expect(codeTexts(message)).toEqual([])
    expect(mrkdwnTexts(message).join('\n')).toMatch(/has not seen this call’s arguments.*web UI/)
  })

  it('blames no late connection for arguments not seen: the relay may have been connected all along', () => {
    expect(mrkdwnTexts(approvalMessage(approval(undefined))).join('\n')).not.toMatch(/connected after/)
  })

  it(`shows up to LIMIT.approvalArgumentsCard (${LIMIT.approvalArgumentsCard}) characters whole, and shortens one more with the rest in the thread`, () => {
    const fits = 'x'.repeat(LIMIT.approvalArgumentsCard)
    const over = 'x'.repeat(LIMIT.approvalArgumentsCard + 1)

    expect(codeTexts(approvalMessage(approval(JSON.stringify({ command: fits }))))).toEqual([fits])
    expect(approvalOverflow(approval(JSON.stringify({ command: fits })))).toEqual({ thread: [] })
    const shortened = approvalMessage(approval(JSON.stringify({ command: over })))
    expect(codeTexts(shortened)[0]!.length).toBeLessThanOrEqual(LIMIT.approvalArgumentsCard)
    expect(codeTexts(shortened)[0]).toMatch(/…$/)
    expect(mrkdwnTexts(shortened).join('\n')).toContain('the full text is in the thread')
  })

  it(`shows up to LIMIT.approvalArgumentsLines (${LIMIT.approvalArgumentsLines}) lines whole and cuts one more at a line break`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `echo ${i}`).join('\n')

    expect(codeTexts(approvalMessage(approval(JSON.stringify({ command: lines(LIMIT.approvalArgumentsLines) })))))
      .toEqual([lines(LIMIT.approvalArgumentsLines)])
    expect(codeTexts(approvalMessage(approval(JSON.stringify({ command: lines(LIMIT.approvalArgumentsLines + 1) })))))
      .toEqual([`${lines(LIMIT.approvalArgumentsLines)}\n…`])
  })

  it('puts the whole of a long command in the thread, in parts that join back to it exactly', () => {
    const command = Array.from({ length: 400 }, (_, i) => `printf '%s\\n' "line ${i} <!here>"`).join('\n')

    const { thread, file } = approvalOverflow(approval(JSON.stringify({ command })))

    expect(file).toBeUndefined()
    expect(thread.length).toBeGreaterThan(1)
    expect(thread.length).toBeLessThanOrEqual(LIMIT.fileAfterThreadParts)
    expect(thread.flatMap((part) => codeTexts(part)).join('')).toBe(command)
    for (const part of thread) expect(checkMessagePayload(part)).toEqual([])
  })

  it('attaches arguments too long for a short thread as a file, named after the tool, and says so on the card', () => {
    const command = 'y'.repeat(LIMIT.approvalArgumentsPart * (LIMIT.fileAfterThreadParts + 1))
    const view = approval(JSON.stringify({ command, cwd: '/srv' }), { toolName: 'bash <!here>' })

    const { thread, file } = approvalOverflow(view)

    expect(thread).toEqual([])
    expect(file).toEqual({ filename: 'bash-here-arguments.txt', title: 'Tool call arguments', content: `# Command\n${command}\n\n# Other arguments\n{\n  "cwd": "/srv"\n}` })
    expect(mrkdwnTexts(approvalMessage(view)).join('\n')).toContain('the full text is in the attached file bash-here-arguments.txt')
  })
})

describe('approval card: the arguments fold, the verdict stays outside', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `echo ${i}`).join('\n')
  const containerOf = (message: { blocks: unknown }) => {
    const [container, ...others] = elementsOfType(message.blocks as never, 'container')
    expect(others).toEqual([])
    return container as { title: { type: string; text: string }; subtitle?: { type: string; text: string }; child_blocks: unknown[]; is_collapsible: boolean; default_collapsed: boolean }
  }
  const topLevelTypes = (message: { blocks: unknown }) => (message.blocks as { type: string }[]).map((block) => block.type)

  it('puts the command in a collapsible container and Allow once and Reject after it, outside', () => {
    const message = approvalMessage(approval(JSON.stringify({ command: 'make deploy' })))

    const types = topLevelTypes(message)
    expect(types.indexOf('container')).toBeLessThan(types.lastIndexOf('actions'))
    expect(elementsOfType(containerOf(message).child_blocks as never, 'button')).toEqual([])
    expect(containerOf(message)).toMatchObject({ title: { type: 'plain_text', text: 'Command' }, is_collapsible: true })
    expect(checkMessagePayload(message)).toEqual([])
  })

  it(`leaves ${LIMIT.approvalUnfoldedLines} lines open and folds one more, its first line and the count as the subtitle`, () => {
    const open = containerOf(approvalMessage(approval(JSON.stringify({ command: lines(LIMIT.approvalUnfoldedLines) }))))
    const folded = containerOf(approvalMessage(approval(JSON.stringify({ command: lines(LIMIT.approvalUnfoldedLines + 1) }))))

    expect(open.default_collapsed).toBe(false)
    expect(open.subtitle).toBeUndefined()
    expect(folded.default_collapsed).toBe(true)
    expect(folded.subtitle).toEqual({ type: 'plain_text', text: `echo 0 (+${LIMIT.approvalUnfoldedLines} more lines)`, emoji: false })
    expect(codeTexts(folded)).toEqual([lines(LIMIT.approvalUnfoldedLines + 1)])
  })

  it(`leaves ${LIMIT.approvalUnfoldedChars} characters open and folds one more`, () => {
    expect(containerOf(approvalMessage(approval(JSON.stringify({ command: 'x'.repeat(LIMIT.approvalUnfoldedChars) })))).default_collapsed).toBe(false)
    expect(containerOf(approvalMessage(approval(JSON.stringify({ command: 'x'.repeat(LIMIT.approvalUnfoldedChars + 1) })))).default_collapsed).toBe(true)
  })

  it(`keeps a folded subtitle within Slack's ${LIMIT.containerSubtitle} characters, literal plain text, with the line count whole`, () => {
    const command = `curl <https://evil.example|bank.com> <!channel> ${'a'.repeat(400)}\nrm -rf /tmp/x`

    const folded = containerOf(approvalMessage(approval(JSON.stringify({ command }))))

    expect([...folded.subtitle!.text].length).toBeLessThanOrEqual(LIMIT.containerSubtitle)
    expect(folded.subtitle!.text).toMatch(/^curl <https:\/\/evil\.example\|bank\.com> <!channel> a+… \(\+1 more line\)$/)
    expect(folded.subtitle!.type).toBe('plain_text')
  })

  it('counts only the command\'s own lines in the folded subtitle, not the other arguments\' JSON', () => {
    const oneLine = containerOf(approvalMessage(approval(JSON.stringify({ command: `psql -c 'select 1' ${'x'.repeat(LIMIT.approvalUnfoldedChars)}`, description: 'check', timeout: 5, cwd: '/srv' }))))
    const twoLines = containerOf(approvalMessage(approval(JSON.stringify({ command: `set -e\n${'y'.repeat(LIMIT.approvalUnfoldedChars)}`, description: 'check', timeout: 5 }))))

    expect(oneLine.subtitle!.text).not.toMatch(/more line/)
    expect(twoLines.subtitle!.text).toMatch(/^set -e \(\+1 more line\)$/)
  })

  it('labels the other arguments inside the fold, under the command the title names', () => {
    const folded = containerOf(approvalMessage(approval(JSON.stringify({ command: 'ls', cwd: '/srv' }))))

    expect(mrkdwnTexts(folded.child_blocks as never)).toEqual([])
    expect(JSON.stringify(folded.child_blocks)).not.toContain('"Command"')
    expect(JSON.stringify(folded.child_blocks)).toContain('"Other arguments"')
  })

  it('keeps the note on where the rest is inside the fold, with the shortened text', () => {
    const folded = containerOf(approvalMessage(approval(JSON.stringify({ command: 'x'.repeat(LIMIT.approvalArgumentsCard + 1) }))))

    expect(mrkdwnTexts(folded.child_blocks as never).join('\n')).toContain('the full text is in the thread')
  })

  it('folds the settled card the same way, so the history keeps what was allowed one tap away', () => {
    const settled = settledApprovalMessage(approval(JSON.stringify({ command: lines(12) })), { kind: 'decided', decision: 'allowed-once', by: { id: 'U0BOB' }, at: NOW })

    expect(containerOf(settled).default_collapsed).toBe(true)
    expect(checkMessagePayload(settled)).toEqual([])
  })

  it('draws no container when the relay has not seen the arguments: the note stands on the card', () => {
    expect(elementsOfType(approvalMessage(approval(undefined)).blocks as never, 'container')).toEqual([])
  })
})
