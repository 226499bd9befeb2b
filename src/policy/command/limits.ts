/**
 * How much of a command line dsh-slack reads (issue 48, decision 0086): past any of these
 * a command is not understood, and falls to the strictest rule that could
 * apply, with the limit named in `policy explain`. Reading is synchronous
 * (matching a rule is), so each is a bound on the work one tool call costs.
 */
/** The bounds of reading one command line (a test may give its own, e.g. no time bound). */
export interface CommandLimits {
  maxLength: number
  maxTreeDepth: number
  maxNodes: number
  maxParseMs: number
  maxShellDepth: number
}

export const COMMAND_LIMITS: Readonly<CommandLimits> = {
  /** Characters of a command line read; a longer one is not parsed at all (1 MB once took 5 s and 600 MB). */
  maxLength: 65_536,
  /**
   * Levels of the parse tree followed (each `$(…)` inside another adds
   * three); deeper is not read, so no reader recurses past it (5,000
   * nested `$(…)` once overflowed the stack).
   */
  maxTreeDepth: 256,
  /**
   * Milliseconds the parser may take over one command line, its nested
   * shells included; tree-sitter's error recovery is slow on some inputs
   * (64 KB of `<<A` lines takes 14 s), so it is stopped at this point.
   */
  maxParseMs: 200,
  /**
   * Nodes of the parse trees read, over the whole command line and the
   * shells nested in it: reading costs a few microseconds a node (about
   * 1,500 simple commands; a long here-document is a handful of nodes).
   */
  maxNodes: 10_000,
  /** How deep `bash -c '… bash -c "…"'` (and `eval`, `env -S`) is followed. */
  maxShellDepth: 3,
}
