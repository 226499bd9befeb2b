import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isSupportedNode, SUPPORTED_NODE } from '../../src/config/node-range.js'

const root = join(import.meta.dirname, '../..')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: unknown }
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; hasInstallScript?: boolean; gypfile?: boolean }> }

/** Every package `npm ci --omit=dev` installs: what runs inside the harness. */
const runtimePackages = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev)

/** Compiled addons (`*.node`) under a package folder, not counting the packages nested in it (listed on their own). */
function addonsIn(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : addonsIn(join(dir, entry.name))
    return entry.name.endsWith('.node') || entry.name === 'binding.gyp' ? [join(dir, entry.name)] : []
  })
}

describe('the Node dsh-slack runs on', () => {
  it('is the harness\'s range, in package.json as in the code that checks it', () => {
    expect(packageJson.engines.node).toBe(SUPPORTED_NODE)
    expect(SUPPORTED_NODE).toBe('^22.19.0 || >=24')
  })

  it('admits 22.19 and later 22s and every Node from 24, and nothing older or in between', () => {
    expect(['22.19.0', '22.23.5', '24.0.0', '25.1.0', 'v26.0.0'].filter(isSupportedNode)).toHaveLength(5)
    expect(['20.20.2', '22.18.9', '22.5.1', '23.11.0', '18.0.0'].filter(isSupportedNode)).toEqual([])
  })
})

describe('CI\'s Node (.ci/node.sh)', () => {
  const versions = ['v20.20.2', 'v22.5.1', 'v22.18.9', 'v22.19.0', 'v22.23.5', 'v23.11.0', 'v24.0.0', 'v26.1.0', 'v18.0.0', 'garbage']
  const ciNode = (script: string) => execFileSync('bash', ['-c', `source .ci/node.sh; ${script}`], { cwd: root, encoding: 'utf8' })

  it('takes the machine\'s Node exactly when package.json\'s range does', () => {
    const inRange = ciNode(`for v in ${versions.join(' ')}; do node_in_range "$v" && echo "$v"; done; true`).trim().split('\n')

    expect(inRange).toEqual(versions.filter(isSupportedNode))
    expect(ciNode('echo "$CI_NODE_RANGE"').trim()).toBe(SUPPORTED_NODE)
  })

  it('fetches a Node in the range when the machine\'s is not', () => {
    expect(isSupportedNode(ciNode('echo "$CI_NODE_VERSION"').trim())).toBe(true)
  })
})

describe('the runtime dependencies', () => {
  it('have no install script, so one checkout serves any Node in the range with nothing to rebuild', () => {
    expect(runtimePackages.length).toBeGreaterThan(10)
    expect(runtimePackages.filter(([, entry]) => entry.hasInstallScript || entry.gypfile).map(([path]) => path)).toEqual([])
    expect(packageJson.allowScripts).toBeUndefined()
  })

  it('ship no compiled addon', () => {
    expect(runtimePackages.flatMap(([path]) => addonsIn(join(root, path)))).toEqual([])
  })
})
