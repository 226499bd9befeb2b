import { lstatSync, readlinkSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname, join, parse, resolve } from 'node:path'
import type { Logger } from '../log/logger.js'

/** Links followed before giving up, as the kernel's own limit (ELOOP). */
const MAX_LINK_HOPS = 40

/** Where a path leads, and the folders whose changes can change where it leads or what it reads. */
export interface PathLinks {
  /** The real path of the file (resolved as far as it exists). */
  file: string
  /** Real folders: the file's own, and each one holding a link on the way (a link swapped there changes the file). */
  folders: string[]
  /** Whether any link is on the way: then no event can be ruled out by its file name. */
  linked: boolean
}

/**
 * Follows `path` component by component, as the kernel does, noting every
 * folder that holds a symbolic link on the way. A Kubernetes ConfigMap
 * mount is `policy.yml -> ..data/policy.yml` with `..data -> ..2026_…`: an
 * update writes a new `..2026_…` folder and renames a new `..data` over the
 * old, so only the mount's own folder sees it, under another name.
 */
export function linksOf(path: string): PathLinks {
  const folders = new Set<string>()
  let linked = false
  const walk = (target: string, hops: number): string => {
    const absolute = resolve(target)
    const { root } = parse(absolute)
    const parts = absolute.slice(root.length).split('/').filter((part) => part !== '')
    let current = root
    for (const [index, part] of parts.entries()) {
      const next = join(current, part)
      let isLink: boolean
      try {
        isLink = lstatSync(next).isSymbolicLink()
      } catch {
        // Missing for now (deleted, or a link to nothing): watch where it would appear.
        folders.add(current)
        return join(next, ...parts.slice(index + 1))
      }
      if (!isLink) {
        current = next
        continue
      }
      linked = true
      folders.add(current)
      if (hops >= MAX_LINK_HOPS) return join(next, ...parts.slice(index + 1))
      let link: string
      try {
        link = readlinkSync(next)
      } catch {
        return join(next, ...parts.slice(index + 1))
      }
      current = walk(resolve(current, link), hops + 1)
    }
    return current
  }
  const file = walk(path, 0)
  folders.add(dirname(file))
  return { file, folders: [...folders], linked }
}

/**
 * Watches the folders `path` depends on (linksOf) and calls `changed` on any
 * event that may concern it; after each event the folders are worked out
 * again, so a swapped link moves the watch with it. Folders are watched, not
 * the file: editors and config managers replace a file by renaming a new
 * one over it. Returns the function that stops every watch.
 */
export function watchPolicyPath(path: string, changed: () => void, logger: Logger): () => void {
  const watchers = new Map<string, FSWatcher>()
  let links = linksOf(path)
  const onEvent = (_event: string, name: string | Buffer | null): void => {
    // Without links only the file's own name matters; with them, a link's name or a new folder's does too.
    if (!links.linked && name !== null && name.toString() !== basename(links.file)) return
    rewatch()
    changed()
  }
  const rewatch = (): void => {
    links = linksOf(path)
    for (const [folder, watcher] of watchers) {
      if (links.folders.includes(folder)) continue
      watcher.close()
      watchers.delete(folder)
    }
    for (const folder of links.folders) {
      if (watchers.has(folder)) continue
      try {
        const watcher = watch(folder, { persistent: false }, onEvent)
        // A folder a link led to may be deleted by the next swap: the link's own folder sees that, and the watch moves.
        watcher.on('error', (error) => {
          watchers.delete(folder)
          if (folder === dirname(links.file)) logger.warn(`stopped watching ${path} for changes (${error.message}); SIGHUP still reloads it`)
        })
        watchers.set(folder, watcher)
      } catch (error) {
        if (folder === dirname(links.file)) logger.warn(`cannot watch ${folder} for changes to ${path} (${error instanceof Error ? error.message : String(error)}); SIGHUP reloads it`)
      }
    }
  }
  rewatch()
  return () => {
    for (const watcher of watchers.values()) watcher.close()
    watchers.clear()
  }
}
