/**
 * What a stop keeps, in words, for the line `serve` and `relay` print when
 * they stop: it must be true in every mode (kept in a file, or in memory;
 * real Slack, or the stand-in), since a person decides from it whether a
 * restart is safe.
 */
export interface StopNoteInput {
  /** Where the bridge keeps its asks: a SQLite file, or `:memory:`. */
  statePath: string
  /** Against the stand-in: where it keeps its workspace (absent: memory only, or real Slack). */
  workspaceFile?: string
  /** Whether the stand-in plays Slack. */
  local: boolean
  /** `questions` for serve; the relay says `requests`. */
  noun?: string
  /** The relay does not withdraw what it forgets: the host still has its requests and they are posted again. */
  relay?: boolean
}

export function stopNote({ statePath, workspaceFile, local, noun = 'questions', relay = false }: StopNoteInput): string {
  if (statePath === ':memory:' && relay) return `DSH_SLACK_STATE is :memory:, so open ${noun} are forgotten here; the host keeps them and the next start posts them again`
  if (statePath === ':memory:') {
    return local
      ? `DSH_SLACK_STATE is :memory:, so nothing is kept: open ${noun} are withdrawn and the stand-in's workspace is forgotten`
      : `DSH_SLACK_STATE is :memory:, so open ${noun} are withdrawn (their messages say so)`
  }
  if (local) {
    const workspace = workspaceFile ? `the stand-in's workspace in ${workspaceFile} and ` : ''
    return `open ${noun} stay open: ${workspace}their state in ${statePath} are kept for the next start (--fresh starts empty)`
  }
  // A database URL may carry a password: name the variable, not its value.
  const where = /^[a-z][a-z0-9+.-]*:\/\//i.test(statePath) ? 'the database DSH_SLACK_STATE names' : statePath
  return `open ${noun} stay open in ${where}; a click after the next start still answers them`
}
