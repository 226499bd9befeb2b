import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { isStoreUnavailable } from '../../src/store/store-unavailable.js'
import { SqliteDatabase, SqliteError } from '../../src/store/sqlite-driver.js'

// The adapter keeps better-sqlite3's semantics for what the store relies on;
// each test is one of those promises, on node:sqlite.
const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-driver-'))
const open: SqliteDatabase[] = []
let files = 0

function database(path = ':memory:'): SqliteDatabase {
  const db = new SqliteDatabase(path)
  open.push(db)
  db.exec('CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, n INTEGER)')
  return db
}

const count = (db: SqliteDatabase) => db.prepare('SELECT count(*) FROM t').pluck().get()

/** What `act` threw (undefined if it returned). */
function thrown(act: () => unknown): unknown {
  try {
    act()
  } catch (error) {
    return error
  }
  return undefined
}

afterEach(() => {
  vi.restoreAllMocks()
  for (const db of open.splice(0)) if (db.open) db.close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('SqliteDatabase statements', () => {
  it('binds @names from an object and ? in order, and ignores keys no parameter names', () => {
    const db = database()

    db.prepare('INSERT INTO t VALUES (@id, @n)').run({ id: 'a', n: 1, unused: 'x' })
    db.prepare('INSERT INTO t VALUES (?, ?)').run('b', 2)

    expect(db.prepare('SELECT id, n FROM t ORDER BY id').all()).toEqual([{ id: 'a', n: 1 }, { id: 'b', n: 2 }])
  })

  it('refuses a named parameter the object lacks, rather than writing NULL', () => {
    const db = database()

    expect(() => db.prepare('INSERT INTO t VALUES (@id, @n)').run({ id: 'a' })).toThrow(/Missing named parameter "n"/)
    expect(count(db)).toBe(0)
  })

  it('does not take a name inside a string literal or a comment for a parameter', () => {
    const db = database()
    db.prepare(`INSERT INTO t VALUES ('x', 1)`).run()

    const row = db.prepare(`SELECT json_set('{}', '$.at', @at) AS doc -- not @this
      /* nor :that */ FROM t WHERE id = @id`).get({ id: 'x', at: 'noon' })

    expect(row).toEqual({ doc: '{"at":"noon"}' })
  })

  it('gives rows as plain objects, and the first column alone once plucked', () => {
    const db = database()
    db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 1)

    const row = db.prepare('SELECT * FROM t').get()

    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(db.prepare('SELECT id FROM t').pluck().get()).toBe('a')
    expect(db.prepare('SELECT id FROM t').pluck().all()).toEqual(['a'])
    expect(db.prepare('SELECT id FROM t WHERE id = ?').pluck().get('none')).toBeUndefined()
  })

  it('reports changes, so a conditional update tells whether it won', () => {
    const db = database()
    db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 1)

    const first = db.prepare('UPDATE t SET n = 2 WHERE id = ? AND n = 1').run('a')
    const second = db.prepare('UPDATE t SET n = 2 WHERE id = ? AND n = 1').run('a')

    expect([first.changes, second.changes]).toEqual([1, 0])
  })

  it('reads a pragma whole or as one value', () => {
    const db = database()

    db.pragma('user_version = 7')

    expect(db.pragma('user_version', { simple: true })).toBe(7)
    expect(db.pragma('user_version')).toEqual([{ user_version: 7 }])
  })
})

describe('SqliteDatabase errors', () => {
  it('names a constraint failure as better-sqlite3 did, so a duplicate is told from an outage', () => {
    const db = database()
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)')
    insert.run('a', 1)

    const error = thrown(() => insert.run('a', 2))

    expect(error).toBeInstanceOf(SqliteError)
    expect(error).toMatchObject({ name: 'SqliteError', code: 'SQLITE_CONSTRAINT', extendedCode: 1555, message: 'UNIQUE constraint failed: t.id' })
    expect(isStoreUnavailable(error)).toBe(false)
  })

  it('reports a file locked past the busy timeout as SQLITE_BUSY: the store is unavailable, not broken', () => {
    const path = join(dir, `busy-${++files}.sqlite`)
    const holder = database(path)
    const waiter = database(path)
    waiter.exec('PRAGMA busy_timeout = 0')
    holder.exec('BEGIN IMMEDIATE')

    const error = thrown(() => waiter.prepare('INSERT INTO t VALUES (?, ?)').run('a', 1))
    holder.exec('ROLLBACK')

    expect(error).toMatchObject({ code: 'SQLITE_BUSY' })
    expect(isStoreUnavailable(error)).toBe(true)
  })

  it('creates no file when told the file must exist, read-only or not', () => {
    const path = join(dir, `absent-${++files}.sqlite`)

    expect(() => new SqliteDatabase(path, { fileMustExist: true })).toThrow(expect.objectContaining({ code: 'SQLITE_CANTOPEN' }))
    expect(() => new SqliteDatabase(path, { fileMustExist: true, readOnly: true })).toThrow(expect.objectContaining({ code: 'SQLITE_CANTOPEN' }))
    expect(existsSync(path)).toBe(false)
  })

  it('opens a file that must exist for reading alone, and refuses writes to it', () => {
    const path = join(dir, `present-${++files}.sqlite`)
    database(path).prepare('INSERT INTO t VALUES (?, ?)').run('a', 1)

    const reader = new SqliteDatabase(path, { fileMustExist: true, readOnly: true })
    open.push(reader)

    expect(reader.prepare('SELECT id FROM t').pluck().all()).toEqual(['a'])
    expect(() => reader.prepare('DELETE FROM t').run()).toThrow(expect.objectContaining({ code: 'SQLITE_READONLY' }))
  })
})

describe('SqliteDatabase transactions', () => {
  it('commits what the function wrote and returns its result', () => {
    const db = database()
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)')

    const result = db.transaction((id: string) => {
      insert.run(id, 1)
      return 'done'
    })('a')

    expect(result).toBe('done')
    expect(count(db)).toBe(1)
    expect(db.inTransaction).toBe(false)
  })

  it('rolls everything back when the function throws, and rethrows its error', () => {
    const db = database()
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)')
    const failing = db.transaction(() => {
      insert.run('a', 1)
      throw new Error('no')
    })

    expect(() => failing()).toThrow('no')
    expect(count(db)).toBe(0)
    expect(db.inTransaction).toBe(false)
  })

  it('runs a nested transaction in a savepoint: its failure undoes only its own writes', () => {
    const db = database()
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)')
    const inner = db.transaction(() => {
      insert.run('b', 2)
      throw new Error('inner')
    })

    db.transaction(() => {
      insert.run('a', 1)
      expect(() => inner()).toThrow('inner')
    })()

    expect(db.prepare('SELECT id FROM t').pluck().all()).toEqual(['a'])
  })

  it('takes the write lock at BEGIN when immediate, so another connection waits from the start', () => {
    const path = join(dir, `immediate-${++files}.sqlite`)
    const db = database(path)
    const other = database(path)
    other.exec('PRAGMA busy_timeout = 0')
    let otherWrite: unknown

    db.transaction(() => {
      otherWrite = thrown(() => other.prepare('INSERT INTO t VALUES (?, ?)').run('x', 1))
    }).immediate()

    expect(otherWrite).toMatchObject({ code: 'SQLITE_BUSY' })
  })

  it('compiles BEGIN and COMMIT once per connection, not once per transaction', () => {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite')
    const db = database()
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)')
    const write = db.transaction((id: string) => insert.run(id, 1))
    write('a')
    const exec = vi.spyOn(DatabaseSync.prototype, 'exec')
    const prepare = vi.spyOn(DatabaseSync.prototype, 'prepare')

    write('b')
    write('c')

    expect(exec).not.toHaveBeenCalled()
    expect(prepare).not.toHaveBeenCalled()
    expect(count(db)).toBe(3)
  })

  it('refuses an async function: its transaction would end before its work', () => {
    const db = database()
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)')

    expect(() =>
      db.transaction(async () => {
        insert.run('a', 1)
      })(),
    ).toThrow(/must not return a promise/)
    expect(count(db)).toBe(0)
  })
})
