/**
 * Who has the app's Home tab open, and who is publishing whose tab right
 * now. A Home tab shows the store's pending asks, so it must be published
 * again when one opens or settles; and with several instances on one app,
 * Slack hands `app_home_opened` to any of them while another settles the
 * ask. A shared store keeps this in a table (PostgresAskStore.homeViewers),
 * so whichever instance changes an ask refreshes every open tab; a local
 * store keeps it in this process (`MemoryHomeViewers`).
 *
 * Publishing takes turns per person: views.publish has no compare-and-set,
 * so two instances publishing one tab could leave the older picture last.
 * The instance holding a person's claim publishes; another that wants to
 * marks the tab stale, and the holder publishes once more before it lets go.
 */
export interface HomeViewers {
  /** `user` opened (or acted on) their Home tab at `at`. */
  seen(user: string, at: number): Promise<void>
  /** Who opened their Home tab at or after `since`. */
  openSince(since: number): Promise<string[]>
  /**
   * Takes the right to publish `user`'s tab until `until`, unless another
   * holder has it and its claim has not run out by `now`: then the tab is
   * marked stale (that holder publishes again) and the answer is false.
   */
  claim(user: string, holder: string, now: number, until: number): Promise<boolean>
  /**
   * Gives the claim back, unless the tab was marked stale meanwhile: then
   * the claim is kept, the mark cleared, and the answer is false (publish
   * again, from a fresh read).
   */
  release(user: string, holder: string): Promise<boolean>
}

interface Viewer {
  openedAt: number
  claim?: { holder: string; until: number }
  stale: boolean
}

/** The Home tabs open in this process: enough when no other process shares the store. */
export class MemoryHomeViewers implements HomeViewers {
  readonly #viewers = new Map<string, Viewer>()

  #viewer(user: string): Viewer {
    let viewer = this.#viewers.get(user)
    if (!viewer) this.#viewers.set(user, (viewer = { openedAt: 0, stale: false }))
    return viewer
  }

  async seen(user: string, at: number): Promise<void> {
    const viewer = this.#viewer(user)
    viewer.openedAt = Math.max(viewer.openedAt, at)
  }

  async openSince(since: number): Promise<string[]> {
    const open: string[] = []
    for (const [user, viewer] of this.#viewers) {
      if (viewer.openedAt >= since) open.push(user)
      // Nobody publishes a tab closed this long: forget it.
      else if (!viewer.claim) this.#viewers.delete(user)
    }
    return open
  }

  async claim(user: string, holder: string, now: number, until: number): Promise<boolean> {
    const viewer = this.#viewer(user)
    if (viewer.claim && viewer.claim.holder !== holder && viewer.claim.until >= now) {
      viewer.stale = true
      return false
    }
    viewer.claim = { holder, until }
    viewer.stale = false
    return true
  }

  async release(user: string, holder: string): Promise<boolean> {
    const viewer = this.#viewers.get(user)
    if (!viewer?.claim || viewer.claim.holder !== holder) return true
    if (viewer.stale) {
      viewer.stale = false
      return false
    }
    delete viewer.claim
    return true
  }
}
