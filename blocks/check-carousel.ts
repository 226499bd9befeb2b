/**
 * The `carousel` block and its `card`s, as the Block Kit checker (check.ts)
 * reads them (Block Kit reference, "Carousel block" and "Card block"; the
 * CarouselBlock and CardBlock typings of @slack/types 3.2).
 */
import { LIMIT } from './limits.js'
import { fail, id, isObj, list, text, type Ctx, type Obj } from './check-core.js'

/** Checks one element (a card's button or image) as the checker does everywhere. */
export type ElementCheck = (element: Obj, path: string) => void

const CARD_FIELDS = new Set(['type', 'block_id', 'hero_image', 'icon', 'title', 'subtitle', 'body', 'actions'])

/**
 * A card: a title and subtitle of at most LIMIT.cardTitle /
 * LIMIT.cardSubtitle characters and a body of at most LIMIT.cardBody
 * (plain_text or mrkdwn: the reference allows both, the typings say
 * mrkdwn), at most LIMIT.cardActions buttons, images for `hero_image` and
 * `icon`, and at least one of hero_image, title, actions or body. Assumed
 * where the reference is silent: no other field (the newer `slack_icon` and
 * `subtext` are not in @slack/types 3.2, which is what we build against).
 */
function card(ctx: Ctx, c: Obj, path: string, button: ElementCheck): void {
  if (c.type !== 'card') return fail(ctx, `${path}/type`, `unsupported type in a carousel: ${String(c.type)} (a carousel holds card blocks)`)
  for (const key of Object.keys(c)) if (!CARD_FIELDS.has(key)) fail(ctx, `${path}/${key}`, `unsupported field: ${key}`)
  id(ctx, c, 'block_id', path, ctx.blockIds)
  if (c.hero_image === undefined && c.title === undefined && c.actions === undefined && c.body === undefined) {
    fail(ctx, path, 'must provide at least one of: hero_image, title, actions, body')
  }
  text(ctx, c, 'title', path, LIMIT.cardTitle, { optional: true })
  text(ctx, c, 'subtitle', path, LIMIT.cardSubtitle, { optional: true })
  text(ctx, c, 'body', path, LIMIT.cardBody, { optional: true })
  for (const key of ['hero_image', 'icon'] as const) {
    const image = c[key]
    if (image === undefined) continue
    if (!isObj(image) || image.type !== 'image') fail(ctx, `${path}/${key}`, 'must be an image element')
    else button(image, `${path}/${key}`)
  }
  for (const [el, at] of list(ctx, c, 'actions', path, LIMIT.cardActions, true)) {
    if (el.type !== 'button') fail(ctx, `${at}/type`, `unsupported type in a card: ${String(el.type)} (cards take buttons)`)
    else button(el, at)
  }
}

/**
 * A carousel: 1 to LIMIT.carouselCards cards. Assumed where the reference is
 * silent: messages only (like the other agent blocks), never inside a
 * container, and its cards count towards the message's text but not its
 * block count.
 */
export function carousel(ctx: Ctx, b: Obj, path: string, element: ElementCheck): void {
  if (ctx.surface !== 'message') return fail(ctx, `${path}/type`, 'unsupported type: carousel (carousel blocks are only allowed in messages)')
  for (const [c, at] of list(ctx, b, 'elements', path, LIMIT.carouselCards)) card(ctx, c, at, element)
}
