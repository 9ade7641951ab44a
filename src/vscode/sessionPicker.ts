import * as vscode from 'vscode';
import type { SessionStore, SessionSummary } from '../sessions/sessionStore';

function ago(ms: number): string {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 90) return 'just now';
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 129600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** A quick pick over this workspace's sessions, newest first; returns the chosen id. */
export async function pickSession(store: SessionStore): Promise<string | undefined> {
  let list: SessionSummary[] = await store.list();
  // A lost or corrupt index is rebuilt from the transcripts rather than showing nothing.
  if (!list.length) list = await store.rebuildIndex();
  if (!list.length) {
    void vscode.window.showInformationMessage(`Threadline: no earlier sessions in this workspace yet.`);
    return undefined;
  }
  const items = list.map((s) => ({
    label: s.title,
    description: `${ago(s.updatedAt)} · ${s.messageCount} messages${s.branch ? ` · ${s.branch}` : ''}`,
    detail: `${s.model} · ${Math.round(s.tokens / 1000)}k tokens`,
    id: s.id,
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Threadline: Resume Session',
    placeHolder: 'Search sessions by title',
    matchOnDescription: true,
    matchOnDetail: true,
    // The chat webview may take focus as it loads; the pick must not vanish with it.
    ignoreFocusOut: true,
  });
  return pick?.id;
}
