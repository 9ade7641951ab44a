import type { MouseEvent } from 'react';
import type { FileRef } from '../tools/describe';
import { post } from '../vscodeApi';

/** A file a tool touched: opens it in the editor (at the line, when there is one). */
export function PathLink({ file, label }: { file: FileRef; label?: string }) {
  const where = file.line ? `${file.path}:${file.line}` : file.path;
  const open = (e: MouseEvent) => {
    // Inside a card's header the click must not also fold or unfold the card.
    e.stopPropagation();
    post({ type: 'editor/openFile', payload: file.line ? { path: file.path, line: file.line } : { path: file.path } });
  };
  return (
    <button type="button" className="link path-link" data-testid="path-link" data-path={file.path} title={`Open ${where}`} onClick={open}>
      {label ?? file.path}
    </button>
  );
}
