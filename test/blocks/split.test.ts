import { describe, expect, it } from 'vitest'
import { checkMessagePayload } from '../../blocks/check.js'
import { LIMIT, questionMessage } from '../../blocks/index.js'
import { elementsOfType, planReview, richText } from './fixtures.js'

/** A plan of about `bytes` characters: headings, prose, lists, code blocks (one huge), tables, quotes. */
function bigPlan(bytes: number): { plan: string; words: string[]; code: string[] } {
  const parts: string[] = ['# The big plan']
  const words: string[] = []
  const code: string[] = []
  let n = 0
  let size = 0
  while (size < bytes) {
    const w = `word${n}z`
    words.push(w)
    let part: string
    switch (n % 5) {
      case 0:
        part = `## Step ${n}\n\nWe ${w} the thing, then **carefully** check it.`
        break
      case 1:
        part = `- first ${w}\n- second item\n  - nested under it`
        break
      case 2: {
        const body = n % 50 === 2 ? [`// ${w}`, ...Array.from({ length: 400 }, (_, i) => `  huge_${n}_${i}()`)].join('\n') : `const ${w} = ${n}\nconsole.log(${w})`
        code.push(body)
        part = `\`\`\`ts\n${body}\n\`\`\``
        break
      }
      case 3:
        part = `| key | value |\n|---|---|\n| ${w} | ${n} |`
        break
      default:
        part = `> Note: ${w} matters.`
    }
    parts.push(part)
    size += part.length + 2
    n++
  }
  return { plan: parts.join('\n\n'), words, code }
}

describe('a 200 KB plan', () => {
  const { plan, words, code } = bigPlan(200_000)
  const rendered = questionMessage(planReview(plan))
  const pieces = [rendered.message, ...rendered.thread]

  it('is split into a card and thread parts each within Slack limits, with the whole plan as a file', () => {
    expect(plan.length).toBeGreaterThanOrEqual(200_000)
    for (const piece of pieces) expect(checkMessagePayload(piece)).toEqual([])
    expect(rendered.file).toEqual({ filename: 'plan.md', title: 'Plan review', content: plan })
    expect(rendered.thread.length).toBeLessThanOrEqual(LIMIT.threadParts)
  })

  it('keeps every word and every code block when read back from the pieces or the file', () => {
    const shown = pieces.map((p) => richText(p)).join('')
    const preformatted = pieces.flatMap((p) => elementsOfType(p, 'rich_text_preformatted').map((b) => richText(b))).join('\n')
    const inThreadOrFile = (w: string) => shown.includes(w) || rendered.file!.content.includes(w)

    expect(words.filter((w) => !inThreadOrFile(w))).toEqual([])
    expect(code.filter((c) => !preformatted.includes(c) && !rendered.file!.content.includes(`\`\`\`ts\n${c}\n\`\`\``))).toEqual([])
  })

  it('shows the card, then the thread in order, with nothing skipped between them', () => {
    const shown = pieces.map((p) => richText(p)).join('')
    const shownWords = words.filter((w) => shown.includes(w))
    const total = rendered.thread.length

    // The thread holds everything up to LIMIT.threadParts parts; the file holds the rest.
    expect(shownWords).toEqual(words.slice(0, shownWords.length))
    expect(richText(rendered.thread.at(-1))).not.toBe('')
    expect(total).toBeGreaterThan(0)
  })
})

describe('a thread part’s notification text', () => {
  it('escapes agent text once, so "R&D <team>" reads as written in the notification', () => {
    const { plan } = bigPlan(60_000)

    const rendered = questionMessage(planReview(plan, { header: 'R&D <team>' }))

    expect(rendered.thread.length).toBeGreaterThan(0)
    for (const part of rendered.thread) {
      expect(part.text).toContain('R&amp;D &lt;team&gt;')
      expect(part.text).not.toContain('&amp;amp;')
    }
  })
})
