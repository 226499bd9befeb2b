import type { Pool } from 'pg'
import { loadMigrations, type Migration } from '../migrations/load-migrations.js'
import { MIGRATION_LOCK_KEY, SQL } from './queries.js'

/**
 * Brings the database up to this version's schema. Several instances may
 * start at once: each takes the same transaction-scoped advisory lock
 * first, so one applies the missing migrations and the others, once they
 * get the lock, find nothing left to do. A database migrated by a newer
 * dsh-slack is refused rather than written with an older idea of the schema.
 */
export async function migratePostgres(pool: Pool, migrations: Migration[] = loadMigrations('postgres')): Promise<number> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(SQL.lockMigrations, [MIGRATION_LOCK_KEY])
    await client.query(SQL.createMigrationsTable)
    const applied = new Set((await client.query<{ version: number }>(SQL.appliedVersions)).rows.map((row) => row.version))
    const newest = Math.max(0, ...applied)
    const known = migrations.length
    if (newest > known) {
      throw new Error(`the database was migrated by a newer dsh-slack (schema ${newest}, this one knows ${known}); upgrade this instance`)
    }
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue
      await client.query(migration.sql)
      await client.query(SQL.recordMigration, [migration.version, migration.name])
    }
    await client.query('COMMIT')
    return known
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}
