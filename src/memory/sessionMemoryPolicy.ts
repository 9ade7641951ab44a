// When the per-session notes are worth refreshing (seed 000 §7): enough context to be worth
// summarising, enough growth since the last refresh, and either many tool calls or a
// natural break. Token growth is always required: tool calls alone never trigger it.

export interface SessionMemoryConfig {
  minTokensToInit: number;
  minTokensBetweenUpdates: number;
  toolCallsBetweenUpdates: number;
}

export const DEFAULT_SESSION_MEMORY_CONFIG: SessionMemoryConfig = {
  minTokensToInit: 10_000,
  minTokensBetweenUpdates: 5_000,
  toolCallsBetweenUpdates: 10,
};

export interface SessionMemoryProgress {
  /** Context tokens now. */
  tokens: number;
  /** Context tokens at the last update, or undefined before the first. */
  tokensAtLastUpdate: number | undefined;
  toolCallsSinceLastUpdate: number;
  /** The last assistant message had no tool call: the model finished a piece of work. */
  naturalBreak: boolean;
}

export function shouldUpdateSessionMemory(p: SessionMemoryProgress, c: SessionMemoryConfig = DEFAULT_SESSION_MEMORY_CONFIG): boolean {
  if (p.tokens < c.minTokensToInit) return false;
  const growth = p.tokens - (p.tokensAtLastUpdate ?? 0);
  if (growth < c.minTokensBetweenUpdates) return false;
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
