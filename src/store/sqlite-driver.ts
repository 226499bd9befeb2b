/**
 * SQLite for the store, through Node's own `node:sqlite` (DatabaseSync): no
 * native module, so one checkout runs under whatever Node runs it (the
 * harness's Node 22 or 24, the service's) with nothing to rebuild.
 *
 * The surface is the small part of better-sqlite3 the store used —
 * `prepare(sql).run/get/all`, `.pluck()`, `transaction(fn)` with
 * `.immediate`, `pragma`, `exec`, `open`, `close` — with the same
 * semantics, so SQL written against better-sqlite3 moves over unchanged.
 * Errors keep better-sqlite3's `code` (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`…),
 * which callers test (store-unavailable.ts, the duplicate-ask check).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'
import { SUPPORTED_NODE } from '../config/node-range.js'

/** One value bound to a `?`. */
export type SqliteValue = SQLInputValue

/** `?` values in order, or one object whose keys name `@name` parameters (then `?` values, if any). */
export type SqliteParameters = SqliteValue[] | [named: object, ...anonymous: SqliteValue[]]

export interface SqliteRunResult {
  changes: number | bigint
  lastInsertRowid: number | bigint
}

/** A function run in one transaction: BEGIN before, COMMIT after, ROLLBACK if it throws. */
export interface SqliteTransaction<A extends unknown[], R> {
  (...args: A): R
  /** Takes the write lock at BEGIN (BEGIN IMMEDIATE), so reads inside see nothing another writer changes before the commit. */
  immediate(...args: A): R
}

export interface SqliteOpenOptions {
  readOnly?: boolean
  /** Refuse to create the file (the checkpoint thread opens only what the store made). */
  fileMustExist?: boolean
}

/** SQLite's primary result codes, by number: the names better-sqlite3 gave its errors. */
const RESULT_CODES = [
  'SQLITE_OK', 'SQLITE_ERROR', 'SQLITE_INTERNAL', 'SQLITE_PERM', 'SQLITE_ABORT', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_NOMEM',
  'SQLITE_READONLY', 'SQLITE_INTERRUPT', 'SQLITE_IOERR', 'SQLITE_CORRUPT', 'SQLITE_NOTFOUND', 'SQLITE_FULL', 'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL', 'SQLITE_EMPTY', 'SQLITE_SCHEMA', 'SQLITE_TOOBIG', 'SQLITE_CONSTRAINT', 'SQLITE_MISMATCH', 'SQLITE_MISUSE',
  'SQLITE_NOLFS', 'SQLITE_AUTH', 'SQLITE_FORMAT', 'SQLITE_RANGE', 'SQLITE_NOTADB', 'SQLITE_NOTICE', 'SQLITE_WARNING',
] as const

/**
 * An error SQLite reported. `code` is the primary result code's name
 * (`SQLITE_CONSTRAINT` for every kind of constraint); `extendedCode` is
 * SQLite's extended number (2067: a UNIQUE constraint).
 */
export class SqliteError extends Error {
  override readonly name = 'SqliteError'
  readonly code: string
  readonly extendedCode: number

  constructor(message: string, extendedCode: number, options?: ErrorOptions) {
    super(message, options)
    this.extendedCode = extendedCode
    this.code = RESULT_CODES[extendedCode & 0xff] ?? `SQLITE_UNKNOWN_${extendedCode}`
  }
}

/** node:sqlite reports SQLite's failures as ERR_SQLITE_ERROR with the number in `errcode`; anything else (a bad binding) passes as it is. */
function translated(error: unknown): unknown {
  const { code, errcode, message } = (error ?? {}) as { code?: unknown; errcode?: unknown; message?: unknown }
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return error
  return new SqliteError(typeof message === 'string' ? message : String(error), errcode, { cause: error })
}

function sqliteCall<T>(call: () => T): T {
  try {
    return call()
  } catch (error) {
    throw translated(error)
  }
}

let nodeSqlite: typeof import('node:sqlite') | undefined

/**
 * Loads node:sqlite once, without the ExperimentalWarning Node 22 prints
 * when it loads (as the harness loads it: only that one warning is
 * dropped, for only as long as the load takes). Loaded on first use, not
 * imported, so the filter is in place before Node emits it, and a process
 * that never opens a SQLite file never loads it.
 */
function loadNodeSqlite(path: string): typeof import('node:sqlite') {
  if (nodeSqlite) return nodeSqlite
  const emitWarning = process.emitWarning
  const filtered = (warning: string | Error, ...args: unknown[]): void => {
    const message = warning instanceof Error ? warning.message : warning
    const first = args[0]
    const type = warning instanceof Error ? warning.name : typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'type' in first ? first.type : undefined
    if (type === 'ExperimentalWarning' && message === 'SQLite is an experimental feature and might change at any time') return
    Reflect.apply(emitWarning, process, [warning, ...args])
  }
  process.emitWarning = filtered as typeof process.emitWarning
  let loaded: typeof import('node:sqlite') | undefined
  try {
    // Node 20 has no node:sqlite (nor, before 20.16, getBuiltinModule); Node 22 before 22.13 hides it behind a flag.
    loaded = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:sqlite') : undefined
  } finally {
    process.emitWarning = emitWarning
  }
  if (!loaded) throw new Error(noNodeSqlite(path))
  return (nodeSqlite = loaded)
}

/**
 * Why a SQLite database cannot open, and only alternatives that work:
 * PostgreSQL needs no node:sqlite, the service's or the stand-in's (the
 * stand-in alone keeps its workspace in a JSON file; a service started
 * with its SLACK_* lines keeps its asks in DSH_SLACK_STATE's database).
 */
export function noNodeSqlite(path: string): string {
  const what = path === ':memory:' || path === '' ? 'asks kept in memory (:memory:) are an in-memory SQLite database, which needs' : `the SQLite state file ${path} needs`
  return `${what} node:sqlite, which this Node (${process.versions.node}${[...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--no-experimental-sqlite') ? ', started with --no-experimental-sqlite' : ''}) does not have: run dsh-slack on a Node ${SUPPORTED_NODE} that has it, or keep the asks in PostgreSQL: DSH_SLACK_STATE=postgres://…, and, without a Slack app, \`dsh-slack sandbox\` for the stand-in with the SLACK_* lines it prints given to the service (docs/several-instances.md)`
}

/** better-sqlite3 is built with a 16 MB page cache (SQLite's default is 2 MB); kept, so nothing reads the disk more than before. */
const CACHE_SIZE_KIB = 16_000

/** A string literal, a quoted name, a comment, or a named parameter (`@id`, `:id`, `$id`): only the last is kept. */
const NAMED_PARAMETER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|[@:$]([A-Za-z_][A-Za-z0-9_]*)/g

function namedParameters(sql: string): string[] {
  return [...new Set([...sql.matchAll(NAMED_PARAMETER)].flatMap((match) => (match[1] === undefined ? [] : [match[1]])))]
}

export class SqliteStatement {
  readonly #statement: StatementSync
  readonly #names: string[]
  #pluck = false

  constructor(statement: StatementSync, sql: string) {
    this.#statement = statement
    this.#names = namedParameters(sql)
    // As better-sqlite3: keys no parameter names are ignored (one row object can serve two statements)…
    statement.setAllowUnknownNamedParameters(true)
  }

  /** …but a missing one is an error, where node:sqlite would bind NULL and write it without a word. */
  #bind(parameters: SqliteParameters): SqliteValue[] {
    const named = parameters[0]
    if (this.#names.length > 0 && typeof named === 'object' && named !== null && !ArrayBuffer.isView(named)) {
      for (const name of this.#names) {
        if ((named as Record<string, unknown>)[name] === undefined) throw new RangeError(`Missing named parameter "${name}"`)
      }
    }
    return parameters as SqliteValue[]
  }

  /** From now on `get` returns the first column's value and `all` a list of them, not rows. */
  pluck(on = true): this {
    this.#pluck = on
    this.#statement.setReturnArrays(on)
    return this
  }

  run(...parameters: SqliteParameters): SqliteRunResult {
    const values = this.#bind(parameters)
    return sqliteCall(() => this.#statement.run(...values))
  }

  /** The first row (a plain object), its first column when plucked, or undefined when there is none. */
  get(...parameters: SqliteParameters): unknown {
    const values = this.#bind(parameters)
    const row = sqliteCall(() => this.#statement.get(...values))
    if (row === undefined) return undefined
    return this.#pluck ? (row as unknown as unknown[])[0] : { ...row }
  }

  all(...parameters: SqliteParameters): unknown[] {
    const values = this.#bind(parameters)
    const rows = sqliteCall(() => this.#statement.all(...values))
    // node:sqlite's rows have a null prototype; callers and tests expect plain objects, as better-sqlite3 gave.
    return this.#pluck ? rows.map((row) => (row as unknown as unknown[])[0]) : rows.map((row) => ({ ...row }))
  }
}

export class SqliteDatabase {
  readonly #db: DatabaseSync
  #savepoints = 0
  /**
   * BEGIN, BEGIN IMMEDIATE and COMMIT, each compiled once on first use: `exec` compiles its SQL on every call,
   * and a round trip's two transactions would compile four statements each time for the same few words.
   */
  readonly #control = new Map<string, StatementSync>()

  /** `path` is a file or `':memory:'`. */
  constructor(path: string, options: SqliteOpenOptions = {}) {
    const { DatabaseSync } = loadNodeSqlite(path)
    const onDisk = path !== ':memory:' && path !== ''
    // SQLite creates a missing file unless asked not to: `mode=rw` in the file's URI does that. A read-only
    // open never creates one (and SQLite refuses `mode=rw` with its read-only flag).
    const location = onDisk && options.fileMustExist && !options.readOnly ? mustExist(path) : path
    this.#db = sqliteCall(() => new DatabaseSync(location, { readOnly: options.readOnly ?? false }))
    this.pragma(`cache_size = -${CACHE_SIZE_KIB}`)
  }

  get open(): boolean {
    return this.#db.isOpen
  }

  get inTransaction(): boolean {
    return this.#db.isTransaction
  }

  prepare(sql: string): SqliteStatement {
    return new SqliteStatement(sqliteCall(() => this.#db.prepare(sql)), sql)
  }

  exec(sql: string): void {
    sqliteCall(() => this.#db.exec(sql))
  }

  /** `PRAGMA source`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`)
    return options.simple ? statement.pluck().get() : statement.all()
  }

  /**
   * Wraps `fn` in a transaction, as better-sqlite3's `transaction` does:
   * COMMIT when it returns, ROLLBACK when it throws. Called inside another
   * transaction it runs in a savepoint, so only its own writes roll back.
   * `fn` must be synchronous: a transaction left open across an await
   * would take in whatever else the event loop ran meanwhile.
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    const run = (begin: string, args: A): R => (this.#db.isTransaction ? this.#inSavepoint(fn, args) : this.#inTransaction(begin, fn, args))
    const transaction = (...args: A): R => run('BEGIN', args)
    transaction.immediate = (...args: A): R => run('BEGIN IMMEDIATE', args)
    return transaction
  }

  /** Runs BEGIN, BEGIN IMMEDIATE or COMMIT from its statement compiled once. */
  #runControl(sql: string): void {
    let statement = this.#control.get(sql)
    if (!statement) this.#control.set(sql, (statement = sqliteCall(() => this.#db.prepare(sql))))
    const prepared = statement
    sqliteCall(() => prepared.run())
  }

  #inTransaction<A extends unknown[], R>(begin: string, fn: (...args: A) => R, args: A): R {
    this.#runControl(begin)
    let result: R
    try {
      result = synchronous(fn(...args))
    } catch (error) {
      // SQLite may have rolled back already (a full disk, say); a second ROLLBACK would hide the first error.
      if (this.#db.isTransaction) this.exec('ROLLBACK')
      throw error
    }
    try {
      this.#runControl('COMMIT')
    } catch (error) {
      // A COMMIT that fails (SQLITE_BUSY past the timeout) leaves the transaction open: end it, so the connection is usable.
      if (this.#db.isTransaction) this.exec('ROLLBACK')
      throw error
    }
    return result
  }

  #inSavepoint<A extends unknown[], R>(fn: (...args: A) => R, args: A): R {
    const name = `dsh_slack_${++this.#savepoints}`
    this.exec(`SAVEPOINT ${name}`)
    try {
      const result = synchronous(fn(...args))
      this.exec(`RELEASE ${name}`)
      return result
    } catch (error) {
      if (this.#db.isTransaction) this.exec(`ROLLBACK TO ${name}; RELEASE ${name}`)
      throw error
    } finally {
      this.#savepoints--
    }
  }

  close(): void {
    sqliteCall(() => this.#db.close())
  }
}

function mustExist(path: string): URL {
  const url = pathToFileURL(resolve(path))
  url.searchParams.set('mode', 'rw')
  return url
}

function synchronous<R>(result: R): R {
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    throw new TypeError('a SQLite transaction function must not return a promise: the transaction would end before the work does')
  }
  return result
}
