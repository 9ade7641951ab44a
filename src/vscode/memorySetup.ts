import { join } from 'node:path';
import * as vscode from 'vscode';
import { memoryKeyFolder } from '../context/gitRepo';
import type { MemorySetup } from '../memory/memoryWiring';
import { resolveMemoryDir } from '../memory/paths';
import type { Logger } from '../ports/logger';
import type { Store } from '../shared/store';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';
import { readMemorySettings } from './settings';

/**
 * Auto memory: one folder per repository (all its worktrees share it), or the setting's; session
 * notes beside the session transcripts. Undefined (with a warning) when the folder is refused.
 */
export async function memorySetup(opts: { cwd: string; globalStorageDir: string; sessionsDir: string; store: Store<AppState>; log: Logger }): Promise<((sessionId: string) => MemorySetup) | undefined> {
  const settings = readMemorySettings();
  // Read from the repository's files: no git runs, trusted or not.
  const canonical = await memoryKeyFolder(opts.cwd);
  const dir = resolveMemoryDir({ setting: settings.directory, globalStorageDir: opts.globalStorageDir, canonicalRoot: canonical });
  if (!dir.ok) {
    void vscode.window.showWarningMessage(`Threadline: auto memory is off: ${dir.reason}`);
    return undefined;
  }
  return (sessionId) => ({
    dir: dir.dir,
    enabled: () => readMemorySettings().enabled,
    ...(readMemorySettings().sessionMemory ? { sessionNotesPath: join(opts.sessionsDir, 'notes', `${sessionId}.md`) } : {}),
    onSaved: (names: string[]) => addNotice(opts.store, 'info', `Saved to memory: ${names.join(', ')}.`, { label: 'Open Memory', command: 'openMemory' }),
    onError: (err: unknown) => opts.log.warn(`memory: ${err instanceof Error ? err.message : String(err)}`),
  });
}
