import type { RestoreView } from '../../../src/shared/undoView';

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** The words of the restore panel, by what it shows (kept apart so they can be tested). */
export function restoreTexts(r: RestoreView): { title: string; apply: string; nothing: string; unchanged: string } {
  const n = r.files.length;
  const what = r.scope === 'both' ? 'code and conversation' : 'code';
  const title =
    r.stage === 'done'
      ? r.redo
        ? `Redone: ${files(r.restored ?? 0)} put back as before the restore.`
        : `Restored ${files(r.restored ?? 0)}${r.kept ? `, kept your version of ${files(r.kept)}` : ''}${r.scope === 'both' ? ' and the conversation' : ''} to before “${r.label}”.`
      : r.redo
        ? `Redo: undo ${r.label}`
        : `Restore ${what} to before “${r.label}”`;
  const apply = r.redo ? `Redo (${files(n)})` : r.scope === 'both' ? (n ? `Restore ${files(n)} and the conversation` : 'Restore the conversation') : `Restore ${files(n)}`;
  return {
    title,
    apply,
    nothing: r.scope === 'both' ? 'No file changed since this message: only the conversation goes back.' : 'Nothing to restore: every file the agent changed since this message is as it was before it.',
    unchanged: `${files(r.unchanged)} changed since ${r.unchanged === 1 ? 'is' : 'are'} already as ${r.unchanged === 1 ? 'it was' : 'they were'}.`,
  };
}
