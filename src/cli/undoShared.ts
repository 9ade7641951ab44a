// What the headless Undo commands share: picking the session, opening a driver on it, naming
// messages, and turning a refusal into one line on stderr.
import type { Agent } from '../agent/agent';
import { printable } from '../base/printable';
import type { Host } from '../ports/host';
import type { SessionDriver } from '../sessions/sessionDriver';
import { SessionError, type LoadedSession, type SessionStore } from '../sessions/sessionStore';
import { createStore } from '../shared/store';
import { getDefaultAppState, type AppState } from '../state/appState';
import { RuntimeState } from '../state/runtimeState';
import type { SessionPick } from './args';
import { headlessDriver } from './headlessDriver';
import type { CliIo } from './io';
import type { PromptDeps } from './runPrompt';

export interface UndoContext {
  io: CliIo;
  host: Host;
  /** What a driver for this folder is built from (tools, permissions, context, sessions). */
  deps: PromptDeps;
}

export const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
export const oneLine = (text: string, max = 72) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return printable(t.length > max ? `${t.slice(0, max - 1)}…` : t);
};
/** Many lines of text for a terminal: each made printable, tabs and line breaks kept. */
export const printableLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.split('\t').map(printable).join('\t'))
    .join('\n');
export const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
export const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class CommandError extends Error {}

export async function pickSession(sessions: SessionStore, pick: SessionPick): Promise<LoadedSession> {
  let id: string | undefined;
  if ('id' in pick) id = pick.id;
  else id = (await sessions.list())[0]?.id ?? (await sessions.rebuildIndex())[0]?.id;
  if (!id) throw new CommandError('there is no saved session in this folder');
  try {
    return await sessions.load(id);
  } catch (err) {
    throw new CommandError(err instanceof SessionError || (err as NodeJS.ErrnoException).code === 'ENOENT' ? `no Threadline session ${id} in this folder (threadline sessions lists them)` : `cannot read session ${id}: ${why(err)}`);
  }
}

export function openDriver(ctx: UndoContext, loaded: LoadedSession, settings: { model?: string; contextWindow?: number } = {}): { driver: SessionDriver<Agent>; state: () => AppState } {
  const runtime = new RuntimeState(loaded.meta.cwd);
  const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings }));
  return { driver: headlessDriver({ cwd: loaded.meta.cwd, host: ctx.host, deps: ctx.deps, store, runtime, first: { kind: 'resume', loaded } }), state: () => store.getState() };
}

/** A user message's first line, to name it. */
export function labelOf(loaded: LoadedSession, id: string): string {
  const m = loaded.view.find((x) => x.id === id);
  return m?.kind === 'user' ? oneLine(m.text, 60) : id;
}

/** An id the user typed: exact, or the one id it is the start of. */
export function resolveId(typed: string, ids: readonly string[], what: string): string {
  if (ids.includes(typed)) return typed;
  const hits = ids.filter((id) => id.startsWith(typed));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) throw new CommandError(`${printable(typed)} is the start of ${hits.length} ${what} ids; give more of it`);
  throw new CommandError(`no ${what} ${printable(typed)} in this session (threadline ${what === 'compaction' ? 'compact --list' : 'rewind'} lists them)`);
}

/** A refusal or a failure: one line on stderr, exit 1; nothing half done is left unsaid. */
export async function guarded(ctx: UndoContext, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    ctx.io.err(`threadline: ${printable(why(err))}\n`);
    return 1;
  }
}
