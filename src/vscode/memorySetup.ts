import { memoryKeyFolder } from '../tools/gitRepo';
import type { MemorySetup } from '../memory/memoryWiring';
import { resolveMemoryDir } from '../memory/paths';
import type { Host } from '../ports/host';
import type { Logger } from '../ports/logger';
import type { SessionContext } from '../sessions/sessionAgent';
import type { Store } from '../shared/store';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';
import { readMemorySettings } from './settings';

/**
 * Auto memory: one folder per repository (all its worktrees share it), or the setting's; session
 * notes where the session driver keeps them. Undefined (with a warning) when the folder is refused.
 */
export async function memorySetup(opts: { cwd: string; globalStorageDir: string; store: Store<AppState>; log: Logger; host: Pick<Host, 'notify' | 'isTrusted'> }): Promise<((session: SessionContext) => MemorySetup) | undefined> {
  const settings = readMemorySettings();
  // Read from the repository's files: no git runs, trusted or not.
  const canonical = await memoryKeyFolder(opts.cwd, opts.host.isTrusted());
  const dir = resolveMemoryDir({ setting: settings.directory, globalStorageDir: opts.globalStorageDir, canonicalRoot: canonical });
  if (!dir.ok) {
    opts.host.notify('warning', `auto memory is off: ${dir.reason}`);
    return undefined;
  }
  return (session) => ({
    dir: dir.dir,
    enabled: () => readMemorySettings().enabled,
    ...(readMemorySettings().sessionMemory ? { sessionNotesPath: session.notesPath } : {}),
    onSaved: (names: string[]) => addNotice(opts.store, 'info', `Saved to memory: ${names.join(', ')}.`, { label: 'Open Memory', command: 'openMemory' }),
    onError: (err: unknown) => opts.log.warn(`memory: ${err instanceof Error ? err.message : String(err)}`),
  });
}
