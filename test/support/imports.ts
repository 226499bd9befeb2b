import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Every module specifier in a TypeScript file: static imports, re-exports and dynamic import(). */
export function specifiers(source: string): string[] {
  const found: string[] = []
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g]
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!)
  return found
}

/** Every TypeScript file under `root`, found by readdir (a new file cannot escape a check). */
export function typeScriptFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(root, name))
}
