import * as vscode from 'vscode';
import type { SessionAgent } from '../sessions/sessionAgent';
import type { SessionDriver } from '../sessions/sessionDriver';
import { listClaudeSessions, loadClaudeSession } from '../sessions/claudeCode';
import type { SessionStore } from '../sessions/sessionStore';
import { pickSession } from './sessionPicker';

/** "Resume Session": this folder's sessions and its Claude Code transcripts, in one picker. */
export async function resumeFromPicker(manager: Pick<SessionDriver<SessionAgent>, 'settleIndex' | 'adoptTitle' | 'importConversation' | 'resume'>, sessions: SessionStore, cwd: string): Promise<void> {
  await manager.settleIndex();
  const picked = await pickSession(sessions, { onRenamed: (id, title) => manager.adoptTitle(id, title) }, await listClaudeSessions(cwd).catch(() => []));
  if (!picked) return;
  if (picked.kind === 'claude') {
    let converted;
    try {
      converted = await loadClaudeSession(picked.file);
    } catch (err) {
      void vscode.window.showErrorMessage(`Threadline: could not read that Claude Code session: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    // The notice says what was left out and whether the import must be compacted to fit.
    manager.importConversation(converted);
    return;
  }
  try {
    await manager.resume(picked.id);
  } catch (err) {
    void vscode.window.showErrorMessage(`Threadline: could not open that session: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  await vscode.commands.executeCommand('threadline.chat.focus');
}
