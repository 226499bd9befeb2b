import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkMessagePayload, checkViewPayload } from '../../blocks/check.js'
import { exampleFileText, examples } from '../../blocks/examples/write.js'

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

  it('are what the renderers produce today (after a rendering change, run npm run examples and commit them)', () => {
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(Object.keys(examples).sort())
    for (const [name, payload] of Object.entries(examples)) {
      expect(readFileSync(`${folder}${name}.json`, 'utf8'), `blocks/examples/${name}.json is stale: run npm run examples`).toBe(exampleFileText(payload))
    }
  })
})
