import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { DiffSide, UndoWorkbench } from '../chat/undoController';

const CHECKPOINT_SCHEME = 'threadline-checkpoint';
/** Documents served at once; the oldest go first (a tab left open then shows its placeholder). */
const MAX_DOCS = 200;

const isBinary = (b: Buffer) => b.subarray(0, 8192).includes(0);

/** What a side shows as text: the bytes, or a line saying what is there instead. */
function textOf(side: DiffSide): string {
  if (side.kind === 'absent') return '';
  if (side.kind === 'link') return `(a symbolic link to ${side.to})\n`;
  return isBinary(side.bytes) ? `(a binary file of ${side.bytes.length} bytes)\n` : side.bytes.toString('utf8');
}

/**
 * Kept copies of files, opened in VS Code's diff editor: a restore's file (the file as it is
 * now against what the restore would write), and the whole session (each file's first snapshot
 * against the file now) in the multi-file changes view. The copies are read-only documents of
 * their own scheme, served from memory; the files themselves are the real ones on disk.
 */
export class CheckpointDiffs implements UndoWorkbench, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private n = 0;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '(this copy is no longer open in Threadline; open the diff again)\n',
    });
  }

  /** A read-only document holding `side`, named after the file so the editor picks its language. */
  private doc(path: string, label: string, side: DiffSide): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${label}/${basename(path)}`, query: `n=${++this.n}` });
    this.texts.set(uri.toString(), textOf(side));
    while (this.texts.size > MAX_DOCS) this.texts.delete(this.texts.keys().next().value!);
    return uri;
  }

  /** The file on disk when it is there now; an empty document when it is not. */
  private async current(path: string): Promise<vscode.Uri> {
    const file = vscode.Uri.file(path);
    try {
      await vscode.workspace.fs.stat(file);
      return file;
    } catch {
      return this.doc(path, 'not there now', { kind: 'absent' });
    }
  }

  async openRestoreDiff(file: { path: string; rel: string }, restored: DiffSide, title: string): Promise<void> {
    const left = await this.current(file.path);
    const right = this.doc(file.path, 'as restored', restored);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  async openSessionDiff(files: ReadonlyArray<{ path: string; rel: string; before: DiffSide; status: string }>): Promise<void> {
    const rows: Array<[vscode.Uri, vscode.Uri, vscode.Uri]> = [];
    for (const f of files) rows.push([vscode.Uri.file(f.path), this.doc(f.path, 'first snapshot', f.before), await this.current(f.path)]);
    try {
      await vscode.commands.executeCommand('vscode.changes', 'Threadline: changes in this session', rows);
    } catch {
      // An editor without the changes view: one diff per file.
      for (const [, left, right] of rows) await vscode.commands.executeCommand('vscode.diff', left, right, `${basename(right.path)}: first snapshot ↔ now`, { preview: false });
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
