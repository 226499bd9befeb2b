import { readdirSync, readFileSync } from 'node:fs'

/** One schema step: `NNNN-what-it-does.sql`, applied in number order, once. */
export interface Migration {
  version: number
  name: string
  sql: string
}

const FILE = /^(\d{4})-([a-z0-9-]+)\.sql$/

/**
 * The numbered SQL files of one store (`migrations/postgres/`,
 * `migrations/sqlite/`). A new table or column is a new file with the next
 * number; an applied file is never edited, because a database that already
 * ran it will not run it again. Numbers must run 1, 2, 3… with no gap or
 * repeat, so a file that failed to ship is caught here rather than skipped.
 */
export function loadMigrations(store: 'postgres' | 'sqlite'): Migration[] {
  const dir = new URL(`./${store}/`, import.meta.url)
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = FILE.exec(file)
      if (!match) throw new Error(`migration file ${store}/${file} is not named NNNN-name.sql`)
      return { version: Number(match[1]), name: match[2]!, sql: readFileSync(new URL(file, dir), 'utf8') }
    })
    .sort((a, b) => a.version - b.version)
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`${store} migrations must be numbered 1, 2, 3… with no gap: found ${migration.version} at position ${index + 1}`)
  })
  return migrations
}
