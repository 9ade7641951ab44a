import { join } from 'node:path';
import * as vscode from 'vscode';
import { ARCHIVE_FILE, archiveDir } from '../sessions/archive';
import { archiveTabName } from '../sessions/archiveName';
import { archiveToMarkdown } from '../sessions/sessionStore';

const ARCHIVE_SCHEME = 'threadline-archive';

/**
 * Transcripts archived before a compaction (the session driver writes them, see
 * sessions/archive.ts), shown read-only as Markdown through a content provider. Only files of
 * that folder can be opened.
 */
export class ArchiveDocuments implements vscode.Disposable {
  private readonly registration: vscode.Disposable;
  private readonly dir: string;

  constructor(sessionsDir: string) {
    this.dir = archiveDir(sessionsDir);
    this.registration = vscode.workspace.registerTextDocumentContentProvider(ARCHIVE_SCHEME, {
      // The file is named in the query; the path is only the tab's label.
      provideTextDocumentContent: async (uri) => {
        const name = new URLSearchParams(uri.query).get('file') ?? '';
        if (!ARCHIVE_FILE.test(name)) return 'Not an archive.';
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(join(this.dir, name)));
        return archiveToMarkdown(Buffer.from(bytes).toString('utf8'));
      },
    });
  }

  /** Opens an archive in a tab named after the session and when it was archived. */
  async open(path: string, session: { title: string; archivedAt: number }): Promise<void> {
    if (!path.startsWith(`${this.dir}/`)) return;
    const file = path.slice(this.dir.length + 1);
    const label = archiveTabName(session.title, session.archivedAt);
    const query = new URLSearchParams({ file }).toString();
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: ARCHIVE_SCHEME, path: `/${label}`, query }));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
