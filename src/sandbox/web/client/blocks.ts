/** Block Kit blocks as DOM: what a message or a modal shows. */
import type { RenderContext } from './context.js'
import { arr, el, isObj, link, str, type Obj } from './dom.js'
import { carouselBlock } from './carousel-block.js'
import { containerBlock } from './container-block.js'
import { dataTableBlock } from './data-table-block.js'
import { inputBlock, renderElement } from './elements.js'
import { markdownBlock } from './markdown-block.js'
import { richText } from './rich-text.js'
import { tableBlock } from './table-block.js'
import { textObject } from './text-object.js'

export function renderBlocks(blocks: unknown, ctx: RenderContext): HTMLElement {
  const root = el('div', 'blocks')
  for (const b of arr(blocks)) if (isObj(b)) root.appendChild(renderBlock(b, ctx))
  return root
}

function renderBlock(b: Obj, ctx: RenderContext): HTMLElement {
  switch (b.type) {
    case 'header':
      return textObject(b.text, 'b-header')
    case 'divider':
      return el('hr', 'b-divider')
    case 'rich_text':
      return richText(b)
    case 'markdown':
      return markdownBlock(b.text)
    case 'table':
      return tableBlock(b)
    case 'data_table':
      return dataTableBlock(b)
    case 'carousel':
      return carouselBlock(b, ctx)
    case 'container':
      return containerBlock(b, (children) => renderBlocks(children, ctx))
    case 'input':
      return inputBlock(b, ctx)
    case 'context': {
      const c = el('div', 'b-context')
      for (const x of arr(b.elements)) {
        if (!isObj(x)) continue
        c.appendChild(x.type === 'image' ? el('span', 'b-image', `[${str(x.alt_text) || 'image'}]`) : textObject(x, 'ctx-text', 'span'))
      }
      return c
    }
    case 'section': {
      const section = el('div', 'b-section')
      const body = el('div', 'b-section-text')
      if (isObj(b.text)) body.appendChild(textObject(b.text))
      if (Array.isArray(b.fields)) {
        const fields = el('div', 'b-fields')
        for (const f of b.fields) fields.appendChild(textObject(f))
        body.appendChild(fields)
      }
      section.appendChild(body)
      if (isObj(b.accessory)) section.appendChild(renderElement(b.accessory, b, ctx))
      return section
    }
    case 'actions': {
      const actions = el('div', 'b-actions')
      for (const x of arr(b.elements)) if (isObj(x)) actions.appendChild(renderElement(x, b, ctx))
      return actions
    }
    case 'image': {
      const figure = el('div', 'b-image')
      figure.appendChild(link(str(b.image_url), `[image: ${str(b.alt_text) || str(b.image_url)}]`))
      return figure
    }
  }
  return el('div', 'b-unknown', `[unsupported block: ${str(b.type)}]`)
}
