/**
 * Every deadline dsh-slack works against, in one place (shared/SLACK.md).
 */
export const TIMING = {
  /** Ours: how often an instance looks for due reminders and escalations (shared state: any instance may send them, once). */
  schedulerPollMs: 5000,
  /** Ours: how often a command started through npm checks that npm is still its parent (src/cli/stop-with-npm.ts). */
  parentWatchMs: 500,
  /** Slack shows "Operation timed out" when an interaction is not acknowledged in this time. */
  ackDeadlineMs: 3000,
  /**
   * Slack sends an Events API delivery it got no acknowledgement for again,
   * up to three times: nearly at once, after a minute, after five (over
   * Socket Mode with `retry_attempt` and `retry_reason`). An interactive
   * envelope (a click) is never sent again.
   */
  eventRetryDelaysMs: [0, 60_000, 5 * 60_000],
  /** A trigger_id works once, for this long: open modals right after ack(). */
  triggerIdLifetimeMs: 3000,
  /** Requests signed longer ago than this are replays (Slack's rule, enforced by Bolt). */
  signatureMaxAgeMs: 5 * 60 * 1000,
  /**
   * Ours: requests signed further ahead than this are refused too. Bolt checks
   * only age, so a request signed with a future timestamp stayed replayable
   * until that future passed; five minutes allows for clock skew.
   */
  signatureMaxFutureMs: 5 * 60 * 1000,
  /**
   * Ours: how long a request body to /slack/events may take to arrive. Slack
   * sends a few KB at once and wants an answer within 3 s; a body trickling
   * in for longer is not Slack and only holds a connection.
   */
  slackEventsBodyTimeoutMs: 10_000,
  /** response_url lives this long (and 5 uses): we use chat.update instead for long-lived questions. */
  responseUrlLifetimeMs: 30 * 60 * 1000,
  /** chat.postMessage: Slack documents about one message a second per channel ("short bursts >1 allowed"). */
  channelPostsPerSecond: 1,
  /**
   * Undocumented: how many posts one channel takes at once before the rate
   * applies. Slack says only "short bursts"; a handful is what it tolerates
   * in practice, and the stand-in enforces the same number.
   */
  channelPostBurst: 4,
  /**
   * Undocumented number: chat.postMessage also keeps "a workspace-wide limit"
   * (the method page says several hundred messages a minute); we take the low end.
   */
  workspacePostsPerMinute: 300,
  /** Undocumented: the workspace-wide posts taken at once (six seconds' worth at the rate above). */
  workspacePostBurst: 30,
  /** A Web API call gives up after this long (the SDK default is no timeout at all). */
  webApiTimeoutMs: 10_000,
  /**
   * How long an unloading plugin waits for its sessions' code channels to be
   * archived (decision 0078): a run's exit must not wait out a Slack outage
   * (decision 0067). A healthy archive is four or five calls.
   */
  sessionEndsAtUnloadMs: 15_000,
  /** How long a group's member list is trusted before it is looked up again. */
  userGroupCacheMs: 5 * 60 * 1000,
  /**
   * Ours: how long a failed group look-up (no such group, a missing scope,
   * Slack away) stands before the group is looked up again: short, so a
   * fixed group works soon, but long enough that an ask naming many bad
   * groups costs one look-up each, not one per click.
   */
  userGroupFailureCacheMs: 60 * 1000,
  /** How long a conversation's member list is trusted (who sees an ask on their Home tab) before it is looked up again. */
  conversationMembersCacheMs: 5 * 60 * 1000,
  /**
   * Ours: someone who opened the app's Home tab within this long has it
   * "open": their tab is re-published when an ask they may answer opens or
   * settles. Slack does not say when a person leaves the tab; a click on it
   * counts as opening it again.
   */
  homeViewerMs: 30 * 60 * 1000,
  /** Ours: Home refreshes asked for within this long are coalesced into one views.publish per person. */
  homeRefreshDelayMs: 250,
  /** Ours: a person's Home tab is claimed (shared store) this long while it is being published. */
  homeClaimMs: 15_000,
  /** The longest long-poll the HTTP API allows (seconds). */
  longPollMaxSeconds: 60,
  /**
   * A thin client (connectToService, `dsh-slack ask --url`) that loses the
   * service (a restart: it keeps open asks) asks again after this long,
   * doubling up to the maximum, and gives up after the last figure.
   */
  serviceRetryFirstMs: 500,
  serviceRetryMaxMs: 10_000,
  serviceGiveUpAfterMs: 5 * 60_000,
  /**
   * Ours: the Retry-After of a 503 while the state store is unreachable. A
   * PostgreSQL restart takes a few seconds; a thin client backs off on its
   * own beyond this.
   */
  storeRetryAfterSeconds: 2,
  /**
   * Ours: the longest `POST /v1/asks` waits for its message to be posted
   * before it answers `queued` with the expected post time (the post goes
   * out all the same). Under an agent's usual 30 s HTTP timeout, with room
   * for a slow network; a burst to one channel goes out at one post a second.
   */
  postAnswerWithinMs: 20_000,
  /** Ours: how often a repeated POST (same Idempotency-Key) re-reads an ask another request is still posting. */
  idempotentRepeatPollMs: 200,
  /**
   * Ours: a thin client's POST and long-poll give up on a response after
   * this long beyond what the service may take (20 s for a POST, the wait for
   * a long-poll), and ask again: a frozen instance holds a connection open
   * without answering.
   */
  serviceResponseGraceMs: 15_000,
  /**
   * Ours: a message posted while the store went away: recording where it is
   * is retried from the first figure, doubling to the second, for up to the
   * third (a PostgreSQL restart takes seconds).
   */
  attachRetryFirstMs: 250,
  attachRetryMaxMs: 5_000,
  attachRetryForMs: 60_000,
  /**
   * Ours: a click on an ask whose message is not recorded yet: if it still
   * is not after this long, its poster is taken to be gone and the message
   * is recorded from the click (a live poster records it within moments).
   */
  adoptMessageAfterMs: 5_000,
  /** Ours: how long a failed request waits for the store to answer a ping before calling it unreachable. */
  storePingTimeoutMs: 2_000,
  /**
   * Slack's Tier 3 rate (chat.update): "50+ per minute ... sporadic bursts
   * are welcome". The documented figure is the floor the pacer sends at
   * without waiting; beyond it the pacer learns the real one (decision 0045).
   */
  tier3CallsPerMinute: 50,
  /**
   * Ours (decision 0045): while chat.updates wait for the Tier 3 budget and
   * Slack has not answered 429 lately, the budget the pacer allows itself
   * doubles this often (a probe, as TCP's slow start)…
   */
  tier3ProbeDoublingMs: 5_000,
  /**
   * …after a 429 whose budget could only be guessed (half what Slack took
   * in the trailing minute), it grows by this fraction every
   * tier3ProbeDoublingMs; after one measured between two 429s, by this
   * fraction a minute (a 429 about once a minute while updates keep waiting).
   */
  tier3RecoverGrowth: 0.1,
  /** …never beyond this many times the documented figure (300 a minute for Tier 3)… */
  tier3ProbeCeilingFactor: 6,
  /** …and a budget learned this long ago is probed again from where it stands (Slack's limits vary). */
  tier3RelearnAfterMs: 10 * 60_000,
  /** Ours: a 429 within this long of the previous one measures the budget from the calls Slack took between them. */
  tier3MeasureWindowMs: 2 * 60_000,
  /**
   * Ours: calls of one tier (chat.update, views.publish) awaiting Slack's
   * answer at once. A burst the budget allows still goes out in moments
   * (Slack answers in well under a second), and when a learned budget
   * proves too big, no more than this many calls meet the 429 that says so.
   */
  tierCallsInFlight: 8,
  /** Slack's Tier 4 rate (chat.postEphemeral, views.open, users.info): about this many calls a minute. */
  tier4CallsPerMinute: 100,
  /**
   * A library process renews its lease in the store this often, and the
   * lease runs this far ahead: an ask whose process stopped renewing is
   * expired by whichever process notices (several instances on one app).
   */
  leaseRenewMs: 5_000,
  leaseMs: 15_000,
  /** How often an instance on a shared store looks for asks whose waiting process is gone. */
  leaseSweepMs: 5_000,
  /**
   * How far ahead an instance arms the expiry of an ask it did not post (a
   * restart's, another instance's): the sweep arms each one this long before
   * it is due at the latest, so a far expiry costs neither a timer nor a look
   * on every sweep (decision 0104). Many sweeps long: one missed is harmless.
   */
  expiryArmAheadMs: 60_000,
  /**
   * Ours: the right to post one ask's card runs this far beyond the wait
   * its channel's queue expects, and is renewed while the post lasts; an
   * instance that dies mid-post leaves the ask to another once it runs out.
   */
  postClaimMs: 15_000,
  /** The right to update one ask's message, held while the update runs (a holder that dies frees it when this runs out). */
  messageClaimMs: 30_000,
  /**
   * Ours: a settled card whose update failed (Slack or the store away) is
   * tried again after the first figure, doubling up to the second, until it
   * lands; each try waits its turn in the Tier 3 budget like any update.
   */
  updateRetryFirstMs: 1_000,
  updateRetryMaxMs: 60_000,
  /**
   * Ours: audit events the store could not take while unreachable are
   * appended again after the first figure, doubling up to the second, until
   * it takes them (src/bridge/late-events.ts).
   */
  lateEventRetryFirstMs: 1_000,
  lateEventRetryMaxMs: 30_000,
  /** Ours: a settled card still not updated after this long is stuck: logged once and counted in /metrics. */
  cardStuckAfterMs: 60_000,
  /** How often a correction waits for another instance's update of the same message to finish. */
  messageClaimRetryMs: 100,
  /**
   * Extra spacing between turns in the budget instances share: a turn is
   * reserved before the call leaves, and one call sent a little late while
   * the next is on time would reach Slack closer together than its limit
   * allows. This much network and timer jitter is absorbed (2 % of a
   * one-a-second rule).
   */
  sharedRateMarginMs: 20,
} as const
