import { resolve } from 'node:path';
import { listClaudeSessions, type ClaudeEnv } from '../sessions/claudeCode';
import { cliSessionsDir } from '../sessions/paths';
import { SessionStore, type SessionSummary } from '../sessions/sessionStore';

interface Io {
  out(text: string): void;
}

type Listed = (SessionSummary & { source: 'threadline' }) | { source: 'claude-code'; id: string; title: string; updatedAt: number; file: string; cwd?: string };

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/**
 * `threadline sessions [--all] [--json]`: this folder's sessions, newest first. `--all` adds
 * Claude Code's sessions of the folder, marked by a `source` (a column in text). Without it the
 * output is what it always was, plus `source` in JSON.
 */
export async function sessionsCommand(args: { cwd: string; json: boolean; all: boolean }, env: NodeJS.ProcessEnv & ClaudeEnv, io: Io): Promise<number> {
  const cwd = resolve(args.cwd);
  const store = new SessionStore(cliSessionsDir(cwd, env));
  let own = await store.list();
  if (!own.length) own = await store.rebuildIndex();
  const list: Listed[] = own.map((s) => ({ ...s, source: 'threadline' as const }));
  if (args.all) {
    for (const c of await listClaudeSessions(cwd, env)) list.push({ source: 'claude-code', id: c.id, title: c.title, updatedAt: c.updatedAt, file: c.file, ...(c.cwd ? { cwd: c.cwd } : {}) });
    list.sort((a, b) => b.updatedAt - a.updatedAt);
  }
  if (args.json) {
    io.out(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  if (!list.length) {
    io.out(args.all ? 'No Threadline or Claude Code sessions in this folder yet.\n' : 'No sessions in this folder yet.\n');
    return 0;
  }
  for (const s of list) {
    const msgs = s.source === 'threadline' ? `${String(s.messageCount).padStart(4)} msgs` : '   - msgs';
    const row = `${s.id}  ${when(s.updatedAt)}  ${msgs}  ${s.title}\n`;
    io.out(args.all ? `${s.source.padEnd(11)}  ${row}` : row);
  }
  return 0;
}
