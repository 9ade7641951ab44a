import type { DiffSummary } from '../../../src/shared/viewState';

/** `+n −m`, coloured like the editor's diff. */
export function DiffStat({ diff }: { diff: DiffSummary }) {
  return (
    <span className="tool-meta diffstat" data-testid="diffstat">
      {diff.isNew && 'new file · '}
      <span className="added">+{diff.added}</span>
      {!diff.isNew && <> <span className="removed">−{diff.removed}</span></>}
    </span>
  );
}

/** The first hunk of a proposed change, as unified-diff lines, added and removed lines marked. */
export function DiffHunk({ diff }: { diff: DiffSummary }) {
  const lines = diff.hunk.split('\n');
  return (
    <pre className="diff-hunk" data-testid="diff-hunk">
      {lines.map((line, i) => {
        const cls = line.startsWith('@@') ? 'hunk-head' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('…') ? 'hunk-more' : 'ctx';
        return (
          <div key={i} className={`diff-line ${cls}`}>
            {line || ' '}
          </div>
        );
      })}
      {diff.moreHunks > 0 && <div className="diff-line hunk-more">… {diff.moreHunks} more {diff.moreHunks === 1 ? 'change' : 'changes'} further down</div>}
    </pre>
  );
}
