import { formatTokens } from '../../../src/shared/format';
import type { ViewMessage } from '../../../src/shared/viewState';

type Compaction = Extract<ViewMessage, { kind: 'compaction' }>;

/** What a compaction divider says: what happened to the conversation, and why Undo is (not) there. */
export function compactionTexts(m: Compaction): { label: string; undoTitle: string } {
  const from = formatTokens(m.tokensBefore);
  const to = formatTokens(m.tokensAfter);
  if (m.undone) {
    return { label: `Compaction undone: the conversation is back to ${from} tokens`, undoTitle: 'Already undone' };
  }
  return {
    label: `Compacted: ${from} → ${to} tokens`,
    undoTitle: m.canUndo
      ? `Restore the conversation as it was before (${from} tokens)`
      : 'Undo is not available: a later compaction summarised this one (undo that first), the conversation was rewound to before it, or it was made before Threadline kept what Undo needs',
  };
}
