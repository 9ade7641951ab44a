import { existsSync } from '../fs/stat';
import { findClaudeSession, loadClaudeSession, type ClaudeEnv, type ConvertedSession, type ImportOptions } from '../sessions/claudeCode';
import { SessionError, type LoadedSession, type SessionStore } from '../sessions/sessionStore';
import type { PromptArgs } from './args';

/** What `--resume ID` / `--continue` picked up. */
export type ResumeTarget =
  | { kind: 'threadline'; loaded: LoadedSession }
  /** A Claude Code session, converted on read; it continues as a new Threadline session. */
  | { kind: 'claude'; id: string; converted: ConvertedSession }
  | { kind: 'error'; reason: string };

const firstLine = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]! : String(err));

/**
 * `--continue` takes this folder's latest Threadline session (Claude Code's own `-c` is for
 * Claude Code's sessions); `--resume ID` takes a Threadline id first, then a Claude Code one.
 */
export async function findResumeTarget(
  resume: NonNullable<PromptArgs['resume']>,
  sessions: SessionStore,
  claude: { cwd: string; env: ClaudeEnv; options: ImportOptions },
): Promise<ResumeTarget> {
  if ('latest' in resume) {
    const id = (await sessions.list())[0]?.id ?? (await sessions.rebuildIndex())[0]?.id;
    if (!id) return { kind: 'error', reason: 'there is no earlier session in this folder to continue' };
    return loadThreadline(sessions, id);
  }
  const { id } = resume;
  let file: string;
  try {
    file = sessions.file(id);
  } catch (err) {
    return { kind: 'error', reason: err instanceof SessionError ? err.message : `cannot resume ${id}: ${firstLine(err)}` };
  }
  if (existsSync(file)) return loadThreadline(sessions, id);
  const found = await findClaudeSession(claude.cwd, id, claude.env);
  if (!found) return { kind: 'error', reason: `cannot resume ${id}: no Threadline or Claude Code session of this folder has that id (see \`threadline sessions --all\`)` };
  try {
    return { kind: 'claude', id, converted: await loadClaudeSession(found.file, claude.options) };
  } catch (err) {
    return { kind: 'error', reason: `cannot import the Claude Code session ${id}: ${firstLine(err)}` };
  }
}

async function loadThreadline(sessions: SessionStore, id: string): Promise<ResumeTarget> {
  try {
    return { kind: 'threadline', loaded: await sessions.load(id) };
  } catch (err) {
    return { kind: 'error', reason: `cannot resume ${id}: ${firstLine(err)}` };
  }
}
