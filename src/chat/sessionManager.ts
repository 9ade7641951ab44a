import type { Agent } from '../agent/agent';
import type { ChatRunner } from '../agent/chatRunner';
import type { MessageParam } from '../api/types';
import type { IDisposable } from '../base/lifecycle';
import type { Logger } from '../ports/logger';
import { SessionRecorder } from '../sessions/recorder';
import { lastAssistantAt, restoreSession, skippedNotice } from '../sessions/resume';
import { titleFrom, type LoadedSession, type SessionStore } from '../sessions/sessionStore';
import type { Store } from '../shared/store';
import type { HistoryItem, PermissionDecision, ViewMessage } from '../shared/viewState';
import { addNotice } from '../state/actions';
import { getDefaultAppState, type AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';

export interface SessionManagerDeps {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  sessions: SessionStore;
  /** A fresh agent for the session `runtime.sessionId` names; `onLoopComplete` saves after each answer. */
  createAgent(hooks: { onLoopComplete(): void }): Agent;
  /** Instruction files and the git snapshot, read once per session. */
  context: { clear(): void; prefetch(): void };
  /** Remembers the open session, so a reload or a restart brings it back. */
  rememberOpen?(id: string): void;
  /** Reads what else a session keeps (its draft, its scroll position) while the session loads. */
  prepareOpen?(id: string): Promise<void>;
}

/** A conversation to switch to: where it comes from decides the rest. */
interface SessionStart {
  /** Keep this session's id (resume); absent: a new id. */
  id?: string;
  history: MessageParam[];
  view: ViewMessage[];
  title?: string;
  recorder?(agent: Agent): SessionRecorder;
  lastAssistantAt?: number;
}

/**
 * Owns which session is open. New, resume, fork and import all come through `switchTo`, so each
 * gets a fresh agent (history, session grants), re-read instruction files and git snapshot, and a
 * recorder that writes it.
 */
export class SessionManager implements IDisposable {
  private current: Agent;
  private recorder: SessionRecorder;
  private remembered: string | undefined;
  /** The newest save in flight; saves are serialised by the recorder, so waiting on it waits on all. */
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SessionManagerDeps) {
    this.current = this.makeAgent();
    this.recorder = this.newRecorder();
    deps.context.prefetch();
  }

  get agent(): Agent {
    return this.current;
  }

  get sessionId(): string {
    return this.deps.runtime.sessionId;
  }

  private makeAgent(): Agent {
    return this.deps.createAgent({ onLoopComplete: () => this.persist() });
  }

  private newRecorder(): SessionRecorder {
    return new SessionRecorder(this.deps.sessions, { id: this.deps.runtime.sessionId, cwd: this.deps.cwd, model: this.deps.store.getState().settings.model });
  }

  private switchTo(start: SessionStart): void {
    const { store, runtime, context } = this.deps;
    this.current.dispose();
    context.clear();
    runtime.startSession(start.id);
    this.current = this.makeAgent();
    context.prefetch();
    const fresh = getDefaultAppState({ sessionId: runtime.sessionId, settings: store.getState().settings });
    store.setState((s) => ({
      ...fresh,
      apiKeySet: s.apiKeySet,
      workspaceTrusted: s.workspaceTrusted,
      // The window's MCP servers outlive a session.
      mcpServers: s.mcpServers,
      messages: start.view,
      ...(start.title ? { sessionTitle: start.title.slice(0, 60) } : {}),
    }));
    this.current.setHistory(start.history, start.lastAssistantAt !== undefined ? { lastAssistantAt: start.lastAssistantAt } : {});
    this.recorder = start.recorder?.(this.current) ?? this.newRecorder();
    if (start.view.length || start.recorder) this.remember();
  }

  private remember(): void {
    if (this.remembered === this.deps.runtime.sessionId) return;
    this.remembered = this.deps.runtime.sessionId;
    this.deps.rememberOpen?.(this.remembered);
  }

  newSession(): void {
    this.switchTo({ history: [], view: [] });
  }

  /** A session that never got a message, under its old id (so its draft comes back with it). */
  reopenFresh(id: string): void {
    this.switchTo({ id, history: [], view: [] });
  }

  /** Opens a saved session of this folder; throws with the reason when it cannot be read. */
  async resume(id: string): Promise<void> {
    const [loaded]: [LoadedSession, unknown] = await Promise.all([this.deps.sessions.load(id), this.deps.prepareOpen?.(id)]);
    this.switchTo({
      id: loaded.meta.id,
      history: [],
      view: [],
      recorder: (agent) => restoreSession(loaded, this.deps.store, agent, this.deps.sessions),
    });
    const warn = skippedNotice(loaded);
    if (warn) addNotice(this.deps.store, 'warning', warn);
  }

  /** A conversation from elsewhere (a Claude Code transcript) becomes a new session. */
  importConversation(c: { history: MessageParam[]; view: ViewMessage[]; title: string }, notice: string): void {
    this.switchTo({ history: c.history, view: c.view, title: c.title, ...(lastAssistantAt(c.view) !== undefined ? { lastAssistantAt: lastAssistantAt(c.view)! } : {}) });
    addNotice(this.deps.store, 'info', notice);
    this.persist('import');
  }

  /** Fork from a user message: a new session from the point before it; the old one stays as it was. */
  fork(viewId: string): boolean {
    const point = this.current.forkPoint(viewId);
    if (!point) return false;
    const from = this.deps.store.getState().sessionTitle;
    // The fork's own Rewind starts with its next message.
    const view = point.messages.map((m) => (m.kind === 'user' && m.rewindable ? { ...m, rewindable: false } : m));
    this.switchTo({ history: point.history, view, title: `Fork of ${from}` });
    addNotice(this.deps.store, 'info', `Forked into a new session; "${from}" is kept as it was. Files on disk were not changed.`);
    this.persist('fork');
    return true;
  }

  /** Writes what changed since the last save; a failure is shown, not thrown. */
  persist(reason = 'update'): void {
    const { store, log } = this.deps;
    const s = store.getState();
    const title = s.sessionTitle === 'New session' ? titleFrom(s.messages) : undefined;
    if (title) store.setState((st) => ({ ...st, sessionTitle: title }));
    const now = store.getState();
    if (now.messages.some((m) => m.kind === 'user')) this.remember();
    this.saving = this.recorder.sync(this.current.messages, now.messages, now.tokens.used, reason).catch((err: unknown) => {
      log.error('could not save the session', err);
      addNotice(store, 'warning', `Threadline could not save this session: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  /** Background memory work finishes (within a limit) and the index reaches disk, before exit. */
  async flush(limitMs = 5000): Promise<void> {
    await Promise.race([this.current.drain(), new Promise((r) => setTimeout(r, limitMs).unref())]);
    await this.saving;
    await this.recorder.flush();
  }

  /** The chat's view of the open session: whichever agent is current, saving after what changes history. */
  readonly runner: ChatRunner = {
    submit: (text: string) => this.current.submit(text),
    stop: () => this.current.stop(),
    retry: () => this.current.retry(),
    continue: () => this.current.continue(),
    respondToPermission: (id: string, d: PermissionDecision) => this.current.respondToPermission(id, d),
    compactNow: async (focus?: string) => this.saved(await this.current.compactNow(focus), 'compaction'),
    undoCompaction: (id: string) => this.saved(this.current.undoCompaction(id), 'undo'),
    rewindTo: (id: string) => this.saved(this.current.rewindTo(id), 'rewind'),
    forkFrom: async (id: string) => this.fork(id),
  };

  private saved(ok: boolean, reason: string): boolean {
    if (ok) this.persist(reason);
    return ok;
  }

  // --- The history list ---

  async list(): Promise<HistoryItem[]> {
    const { sessions } = this.deps;
    await this.settleIndex();
    let list = await sessions.list();
    if (!list.length) list = await sessions.rebuildIndex();
    return list.map((e) => ({ id: e.id, title: e.title, updatedAt: e.updatedAt, messageCount: e.messageCount, current: e.id === this.sessionId, preview: e.preview ?? '' }));
  }

  /**
   * The open session's latest save and index entry on disk now, not after the index's coalescing
   * delay: the panel's history and the Resume picker read the index, and must count the same.
   */
  async settleIndex(): Promise<void> {
    await this.saving;
    await this.recorder.flush();
  }

  async rename(id: string, title: string): Promise<void> {
    await this.deps.sessions.rename(id, title);
    this.adoptTitle(id, title);
  }

  /** A session was renamed elsewhere (the picker): the open one's recorder and title follow. */
  adoptTitle(id: string, title: string): void {
    if (id === this.recorder.id) this.recorder.adoptTitle(title);
    this.deps.store.setState((s) => (s.sessionId === id ? { ...s, sessionTitle: title } : s));
  }

  dispose(): void {
    this.current.dispose();
  }
}
