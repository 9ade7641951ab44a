// When the per-session notes are worth refreshing : enough context to be worth
// summarising, enough new conversation since the last refresh, and either many tool calls or a
// natural break. Growth is always required: tool calls alone never trigger it.
//
// Growth is what the notes have not seen (the messages after their last update), not the
// change in context size: micro-compaction keeps the context level while the conversation goes
// on, and a continued CLI run starts with no memory of the last update.

export interface SessionMemoryConfig {
  minTokensToInit: number;
  /** Unseen conversation needed for an update after the first, when the caller gives no lag limit. */
  minTokensBetweenUpdates: number;
  toolCallsBetweenUpdates: number;
}

export const DEFAULT_SESSION_MEMORY_CONFIG: SessionMemoryConfig = {
  minTokensToInit: 10_000,
  minTokensBetweenUpdates: 5_000,
  toolCallsBetweenUpdates: 10,
};

/**
 * Of the verbatim tail a notes compaction may keep, the share the notes may fall behind by
 * before they are refreshed at a natural break. Below it a compaction can still use the notes
 * with the unseen part kept word for word, so an earlier refresh buys nothing but its cost.
 */
const NOTES_LAG_SHARE = 0.75;

/** The growth that makes an update due, for a verbatim-tail limit (`keepMaxTokens`). */
export function notesGrowthFor(keepMaxTokens: number | undefined, c: SessionMemoryConfig = DEFAULT_SESSION_MEMORY_CONFIG): number {
  return keepMaxTokens === undefined ? c.minTokensBetweenUpdates : Math.max(c.minTokensBetweenUpdates, Math.floor(keepMaxTokens * NOTES_LAG_SHARE));
}

export interface SessionMemoryProgress {
  /** Context tokens now. */
  tokens: number;
  /** Tokens of the conversation the notes have not seen, or undefined before the first update. */
  unseenTokens: number | undefined;
  toolCallsSinceLastUpdate: number;
  /** The last assistant message had no tool call: the model finished a piece of work. */
  naturalBreak: boolean;
  /** Growth needed after the first update (notesGrowthFor); the config's figure when not given. */
  minGrowth?: number;
}

export function shouldUpdateSessionMemory(p: SessionMemoryProgress, c: SessionMemoryConfig = DEFAULT_SESSION_MEMORY_CONFIG): boolean {
  if (p.tokens < c.minTokensToInit) return false;
  const growth = p.unseenTokens ?? p.tokens;
  if (growth < (p.unseenTokens === undefined ? c.minTokensBetweenUpdates : (p.minGrowth ?? c.minTokensBetweenUpdates))) return false;
  return p.toolCallsSinceLastUpdate >= c.toolCallsBetweenUpdates || p.naturalBreak;
}

export const SESSION_MEMORY_TEMPLATE = `# Session notes

## Current task
_What the user asked for, in their words, and what "done" means._

## Files in play
_Paths being read or changed, and why each matters._

## Decisions
_Choices made and the reason for each, including what the user approved or rejected._

## Errors and fixes
_What failed, the cause, and what fixed it._

## Next steps
_What remains, in order._
`;
