import { useState } from 'react';
import type { RestoreFileView, RestoreView } from '../../../src/shared/undoView';
import type { ViewState } from '../../../src/shared/viewState';
import { restoreTexts } from '../controls/restoreTexts';
import { useView } from '../useView';
import { post } from '../vscodeApi';

const selectRestore = (s: ViewState) => s.restore;

/**
 * A code restore, shown before it is applied: each file it would change with its +/- lines
 * (opened in the diff editor on a click), the files someone changed after the agent did (each
 * needs a choice: keep theirs or restore), what cannot be restored and why. After it is applied:
 * what it did, and Redo.
 */
export function RestorePanel() {
  const r = useView(selectRestore);
  if (!r) return null;
  // A new preview starts with no choices made.
  return <RestoreBody key={`${r.messageId}:${r.stage}:${r.redo ? 'redo' : ''}:${r.files.length}`} r={r} />;
}

function RestoreBody({ r }: { r: RestoreView }) {
  const [choices, setChoices] = useState<Record<string, 'restore' | 'keep'>>({});
  const t = restoreTexts(r);
  if (r.stage === 'done') {
    return (
      <div className="undo-panel" data-testid="restore-panel" data-stage="done" role="status">
        <div className="undo-title">
          <span className="codicon codicon-check" /> {t.title}
        </div>
        <div className="undo-actions">
          {r.canRedo && (
            <button className="secondary" data-testid="restore-redo" title="Put back what this restore replaced (you see the changes first)" onClick={() => post({ type: 'restore/redo', payload: {} })}>
              <span className="codicon codicon-redo" /> Redo
            </button>
          )}
          <button className="secondary" data-testid="restore-close" onClick={() => post({ type: 'restore/cancel', payload: {} })}>
            Close
          </button>
        </div>
      </div>
    );
  }
  const conflicts = r.files.filter((f) => f.conflict);
  const open = conflicts.filter((f) => !choices[f.path]).length;
  const canApply = !r.error || r.scope === 'both' ? (r.files.length > 0 || r.scope === 'both') && open === 0 : false;
  return (
    <div className="undo-panel" data-testid="restore-panel" data-stage="preview" role="dialog" aria-label={t.title}>
      <div className="undo-title">
        <span className="codicon codicon-history" /> {t.title}
      </div>
      {r.error && (
        <div className="undo-note" data-testid="restore-error">
          {r.error}
        </div>
      )}
      {r.files.length > 0 && (
        <ul className="restore-files" data-testid="restore-files">
          {r.files.map((f) => (
            <RestoreFile key={f.path} f={f} choice={choices[f.path]} choose={(c) => setChoices((x) => ({ ...x, [f.path]: c }))} />
          ))}
        </ul>
      )}
      {!r.error && r.files.length === 0 && <div className="undo-note">{t.nothing}</div>}
      {r.refused.length > 0 && (
        <div className="restore-refused" data-testid="restore-refused">
          <div className="undo-note">Not restored:</div>
          <ul>
            {r.refused.map((x) => (
              <li key={x.rel}>
                <span className="restore-path">{x.rel}</span> — {x.why}
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.unchanged > 0 && <div className="undo-note">{t.unchanged}</div>}
      {open > 0 && <div className="undo-note">{open === 1 ? 'Choose for the file you changed:' : `Choose for each of the ${open} files you changed:`} keep yours, or restore it.</div>}
      <div className="undo-actions">
        <button data-testid="restore-apply" disabled={!canApply} onClick={() => post({ type: 'restore/apply', payload: { choices } })}>
          {t.apply}
        </button>
        <button className="secondary" data-testid="restore-cancel" onClick={() => post({ type: 'restore/cancel', payload: {} })}>
          Cancel
        </button>
      </div>
    </div>
  );
}

const ACTION: Record<RestoreFileView['action'], { icon: string; word: string }> = {
  modify: { icon: 'diff-modified', word: 'changes back' },
  create: { icon: 'diff-added', word: 'comes back' },
  delete: { icon: 'diff-removed', word: 'is removed' },
};

function RestoreFile({ f, choice, choose }: { f: RestoreFileView; choice: 'restore' | 'keep' | undefined; choose(c: 'restore' | 'keep'): void }) {
  const a = ACTION[f.action];
  return (
    <li className={`restore-file${f.conflict ? ' conflict' : ''}`} data-testid="restore-file" data-rel={f.rel} data-action={f.action} data-conflict={f.conflict ? 'true' : 'false'}>
      <span className={`codicon codicon-${a.icon}`} />
      <button className="link restore-path" data-testid="restore-file-diff" title="Open in the diff editor: the file now, and as the restore would leave it" onClick={() => post({ type: 'restore/openDiff', payload: { path: f.path } })}>
        {f.rel}
      </button>
      <span className="tool-meta diffstat" data-testid="restore-file-stat">
        {f.binary ? (
          'binary'
        ) : (
          <>
            <span className="added">+{f.added}</span> <span className="removed">−{f.removed}</span>
          </>
        )}
      </span>
      <span className="tool-meta">{a.word}</span>
      {f.conflict && (
        <span className="restore-conflict" data-testid="restore-conflict" role="radiogroup" aria-label={`${f.rel} was changed after the agent changed it`}>
          <span className="undo-note">changed since by you (or another program)</span>
          <label>
            <input type="radio" name={`c-${f.path}`} data-testid="restore-keep" checked={choice === 'keep'} onChange={() => choose('keep')} /> Keep yours
          </label>
          <label>
            <input type="radio" name={`c-${f.path}`} data-testid="restore-anyway" checked={choice === 'restore'} onChange={() => choose('restore')} /> Restore
          </label>
        </span>
      )}
    </li>
  );
}
