import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkMessagePayload, checkViewPayload } from '../../blocks/check.js'

const folder = fileURLToPath(new URL('../../blocks/examples/', import.meta.url))
const files = readdirSync(folder).filter((f) => f.endsWith('.json'))

describe('the committed Block Kit examples', () => {
  it('cover every card shape and state', () => {
    expect(files.length).toBeGreaterThanOrEqual(30)
  })

  it.each(files)('%s passes the Block Kit checker', (file) => {
    const payload = JSON.parse(readFileSync(`${folder}${file}`, 'utf8'))

    expect(file.startsWith('modal-') ? checkViewPayload(payload) : checkMessagePayload(payload)).toEqual([])
  })
})
