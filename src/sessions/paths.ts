import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/**
 * Where the CLI keeps a folder's sessions: under the user's state directory, one folder per
 * workspace path (a readable name plus a hash, so two folders with one name never mix).
 */
export function cliStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.THREADLINE_STATE_DIR || join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'threadline');
}

export function cliSessionsDir(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return sessionsDirFor(cliStateDir(env), cwd);
}

/**
 * `base/sessions/<folder name>-<hash of its path>`. Keyed on the folder's path, not on the
 * editor's workspace id: code-server's workspace id includes host and port, so a restart on
 * another port would otherwise lose every session.
 */
export function sessionsDirFor(base: string, cwd: string): string {
  const abs = resolve(cwd);
  const name = basename(abs).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'root';
  const hash = createHash('sha256').update(abs).digest('hex').slice(0, 12);
  return join(base, 'sessions', `${name}-${hash}`);
}

/** A session's notes file (session memory), beside the transcripts. */
export function sessionNotesPath(sessionsDir: string, sessionId: string): string {
  return join(sessionsDir, 'notes', `${sessionId}.md`);
}
