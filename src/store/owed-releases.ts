import type Database from 'better-sqlite3'

/** How long a released card claim may wait for another write to share its commit. */
export const RELEASE_AFTER_MS = 50

interface Release {
  holder: string
  shown: boolean
}

/**
 * Card claims a SQLite store has released but not yet written: each is
 * written in the same commit as this process's next write to the file, or
 * after RELEASE_AFTER_MS, whichever comes first. A release is the last step
 * of every card update, so a click then costs one commit fewer, and the
 * commit no longer runs in the tail of a round trip, where the next request
 * would wait for it.
 *
 * This process's own reads write what is owed first, so it always reads
 * its own releases. Another process sees the claim held a moment longer,
 * which delays only its corrections to the same card. A process killed
 * with releases owed leaves the claim to run out and the card unmarked as
 * shown: the next start's recovery shows the settled card again, which
 * draws the same message.
 */
export class OwedReleases {
  readonly #owed = new Map<string, Release>()
  #timer: NodeJS.Timeout | undefined
  readonly #inOneCommit: (work: () => unknown) => unknown

  constructor(
    db: Database.Database,
    release: Database.Statement<[{ id: string; holder: string; shown: number }]>,
    private readonly afterMs = RELEASE_AFTER_MS,
  ) {
    this.#inOneCommit = db.transaction((work: () => unknown) => {
      for (const [id, { holder, shown }] of this.#owed) release.run({ id, holder, shown: shown ? 1 : 0 })
      return work()
    })
  }

  /** Releases `holder`'s claim on the card of `id` (and marks it shown) with the next write. */
  owe(id: string, holder: string, shown: boolean): void {
    this.#owed.set(id, { holder, shown })
    this.#arm()
  }

  #arm(): void {
    if (this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      try {
        this.before(() => undefined)
      } catch {
        // The file is locked: try again later (the next write may come first).
        this.#arm()
      }
    }, this.afterMs)
    this.#timer.unref()
  }

  /** Runs `work` after the owed releases, in one commit with them; it throws as `work` does, and then nothing is written. */
  before<T>(work: () => T): T {
    if (this.#owed.size === 0) return work()
    const result = this.#inOneCommit(work) as T
    this.#owed.clear()
    clearTimeout(this.#timer)
    this.#timer = undefined
    return result
  }

  /** Before a read: writes what is owed if it can. A read goes on regardless, as another process would read. */
  beforeRead(): void {
    if (this.#owed.size === 0) return
    try {
      this.before(() => undefined)
    } catch {
      // Left owed: the timer tries again.
    }
  }

  /** Released but not yet written (for tests and leak checks). */
  get size(): number {
    return this.#owed.size
  }

  /** Writes what is owed, once, as the store closes. */
  close(): void {
    this.beforeRead()
    clearTimeout(this.#timer)
    this.#timer = undefined
  }
}
