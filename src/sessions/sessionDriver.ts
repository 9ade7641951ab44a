// Why this file is long: it is the one place a session is driven from, for both faces. Opening
// (new, resume, import, fork) and switching must be read together, since the order of recorder,
// agent and history is what keeps a message from being written twice or lost; the rest is the
// short list of what a face may ask of the open session, each a few lines.
import { Emitter } from '../base/event';
import { newId } from '../base/ids';
import type { IDisposable } from '../base/lifecycle';
import type { Host } from '../ports/host';
import type { Logger } from '../ports/logger';
import type { Store } from '../shared/store';
import type { HistoryItem, PermissionDecision } from '../shared/viewState';
import { addNotice } from '../state/actions';
import { getDefaultAppState, type AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';
import { archiveTranscript } from './archive';
import { sessionNotesPath } from './paths';
import { SessionRecorder } from './recorder';
import { resumedRecorder } from './resume';
import type { PartialCompactionPreview, SessionAgent, SessionContext, SubmitOptions } from './sessionAgent';
import type { Compacted, Forked, HistoryChanged, PromptStarted, Rewound, SessionOpened, TurnEnded } from './sessionEvents';
import { importOpening, resumeOpening, type FirstSession, type ImportedConversation, type Opening } from './sessionOpening';
import { SessionRecording } from './sessionRecording';
import { sessionCheckpointsDir, titleFrom, type LoadedSession, type SessionStore } from './sessionStore';
import { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { GitPreImages } from '../checkpoints/git';

export interface SessionDriverDeps<A> {
  store: Store<AppState>;
  runtime: RuntimeState;
  log: Logger;
  cwd: string;
  sessions: SessionStore;
  /** A save that failed is told to the user this way (once per session). */
  host: Pick<Host, 'notify'>;
  /** A fresh agent for a session: its history and its "allow for this session" grants go together. */
  createAgent(session: SessionContext): A;
  /** Instruction files and the git snapshot, read once per session. */
  context: { clear(): void; prefetch(): void };
  /** Reads what else a session keeps (its draft, its scroll position) while the session loads. */
  prepareOpen(id: string): Promise<void>;
  /**
   * Code checkpoints of the files the agent changes, kept beside each session (none: not kept).
   * `git` gives git's copies of files a command changed, for a trusted folder only.
   */
  checkpoints?: { workspace: string; git?(): GitPreImages | undefined; watch?: boolean; retention?: number };
}

type ResultOf<A> = A extends SessionAgent<infer R> ? R : never;

/**
 * Runs the sessions of one face (the panel or the CLI), one open at a time. New, resume, fork and
 * import all come through here, so each gets a fresh agent, re-read instruction files and git
 * snapshot, and a recorder that writes each message as it completes, the same way in both faces.
 * The driver names the session's archive and notes, and fires its lifecycle (see sessionEvents.ts).
 */
export class SessionDriver<A extends SessionAgent> implements IDisposable {
  private current: A;
  private recording: SessionRecording;
  private following: IDisposable;
  private checkpointsOf: SessionCheckpoints | undefined;
  /** The index entry of the session switched away from, written at once rather than after the recorder's delay. */
  private left: Promise<void> = Promise.resolve();

  private readonly opened = new Emitter<SessionOpened>();
  private readonly prompted = new Emitter<PromptStarted>();
  private readonly changed = new Emitter<HistoryChanged>();
  private readonly compacted = new Emitter<Compacted>();
  private readonly rewound = new Emitter<Rewound>();
  private readonly forked = new Emitter<Forked>();
  private readonly ended = new Emitter<TurnEnded<ResultOf<A>>>();
  readonly onDidOpen = this.opened.event;
  readonly onDidStartPrompt = this.prompted.event;
  readonly onDidChangeHistory = this.changed.event;
  readonly onDidCompact = this.compacted.event;
  readonly onDidRewind = this.rewound.event;
  readonly onDidFork = this.forked.event;
  readonly onDidEndTurn = this.ended.event;

  constructor(
    private readonly deps: SessionDriverDeps<A>,
    first: FirstSession,
  ) {
    // A resumed session keeps its id for everything written from here on (notes, archives, transcript).
    if (first.kind === 'resume') deps.runtime.startSession(first.loaded.meta.id);
    const opening = first.kind === 'resume' ? resumeOpening(first.loaded) : first.kind === 'import' ? importOpening(first.conversation) : { how: 'new' as const, history: [], view: [] };
    const open = this.begin(opening);
    this.current = open.agent;
    this.recording = open.recording;
    this.following = open.following;
    this.checkpointsOf = open.checkpoints;
  }

  get agent(): A {
    return this.current;
  }

  get sessionId(): string {
    return this.deps.runtime.sessionId;
  }

  /** The open session's code checkpoints (undefined when this face keeps none). */
  get checkpoints(): SessionCheckpoints | undefined {
    return this.checkpointsOf;
  }

  // --- Which session is open ---

  newSession(): void {
    this.switchTo({ how: 'new', history: [], view: [] });
  }

  /** A session that never got a message, under its old id (so its draft comes back with it). */
  reopenFresh(id: string): void {
    this.switchTo({ how: 'reopened', history: [], view: [] }, id);
  }

  /** Opens a saved session of this folder; throws with the reason when it cannot be read. */
  async resume(id: string): Promise<LoadedSession> {
    const [loaded]: [LoadedSession, unknown] = await Promise.all([this.deps.sessions.load(id), this.deps.prepareOpen(id)]);
    this.switchTo(resumeOpening(loaded), loaded.meta.id);
    return loaded;
  }

  /** A conversation from elsewhere (a Claude Code transcript) becomes a new session. */
  importConversation(c: ImportedConversation): void {
    this.switchTo(importOpening(c));
  }

  /** Fork from a prompt: a new session from the point before it; the old one stays as it was. */
  private fork(promptId: string): boolean {
    const point = this.current.forkPoint(promptId);
    if (!point) return false;
    const from = this.deps.store.getState().sessionTitle;
    const fromId = this.sessionId;
    // The fork keeps what lets its conversation go back (Rewind, each compaction's Undo); the
    // code checkpoints stay with the session that made them.
    const { history, messages: view, compactions, prompts } = point;
    this.switchTo({ how: 'forked', history, view, title: `Fork of ${from}`, ...(compactions ? { compactions } : {}), ...(prompts ? { prompts } : {}) });
    addNotice(this.deps.store, 'info', `Forked into a new session; "${from}" is kept as it was. Files on disk were not changed.`);
    this.persist('fork');
    this.forked.fire({ sessionId: this.sessionId, from: fromId, promptId });
    return true;
  }

  private switchTo(opening: Opening, id?: string): void {
    const { store, runtime, context } = this.deps;
    this.following.dispose();
    this.current.dispose();
    this.checkpointsOf?.dispose();
    // The history list opened next must already show the session just left (an import never sent to, say).
    this.left = this.recording.flush();
    context.clear();
    runtime.startSession(id);
    const fresh = getDefaultAppState({ sessionId: runtime.sessionId, settings: store.getState().settings });
    // The window's MCP servers outlive a session.
    store.setState((s) => ({ ...fresh, apiKeySet: s.apiKeySet, workspaceTrusted: s.workspaceTrusted, mcpServers: s.mcpServers }));
    const open = this.begin(opening);
    this.current = open.agent;
    this.recording = open.recording;
    this.following = open.following;
    this.checkpointsOf = open.checkpoints;
  }

  /**
   * The recorder first, then the agent that waits on it, then the history put back: a loaded
   * session's history is one the recorder already holds, so nothing is written twice.
   */
  private begin(opening: Opening): { agent: A; recording: SessionRecording; following: IDisposable; checkpoints: SessionCheckpoints | undefined } {
    const { store, runtime, sessions, context, cwd, log } = this.deps;
    const id = runtime.sessionId;
    const { loaded } = opening;
    // The header names the model in use as the panel shows it (an alias resolved).
    const recorder = loaded ? resumedRecorder(loaded, sessions) : new SessionRecorder(sessions, { id, cwd, model: store.getState().modelView.id, ...(opening.title ? { title: opening.title } : {}) });
    const recording = new SessionRecording(recorder, store, (err) => {
      const why = err instanceof Error ? err.message : String(err);
      log.error('could not save the session', err);
      this.deps.host.notify('warning', `could not save this session: ${why}`);
    });
    const cp = this.deps.checkpoints;
    // Opened at its first use: a session nobody writes in gets no folder.
    const checkpoints = cp
      ? new SessionCheckpoints({
          dir: sessionCheckpointsDir(sessions.dir, id),
          workspace: cp.workspace,
          notify: (text) => this.deps.host.notify('warning', text),
          ...(cp.git ? { git: cp.git } : {}),
          ...(cp.watch !== undefined ? { watch: cp.watch } : {}),
          ...(cp.retention !== undefined ? { retention: cp.retention } : {}),
        })
      : undefined;
    const agent = this.deps.createAgent({
      id,
      notesPath: sessionNotesPath(sessions.dir, id),
      archive: (history) => archiveTranscript(sessions.dir, id, history),
      saved: () => recording.saved(),
      ...(checkpoints ? { checkpoints } : {}),
    });
    const following = recording.follow(agent, (change) => this.heard(id, change));
    context.prefetch();
    store.setState((s) => ({
      ...s,
      sessionId: id,
      messages: opening.view,
      // A saved title is kept whole; one made here (a fork's, an import's) fits the panel's header.
      ...(opening.title ? { sessionTitle: loaded ? opening.title : opening.title.slice(0, 60) } : {}),
      status: 'idle',
      permission: null,
      canContinue: opening.canContinue ?? false,
    }));
    // Before the history, so the recorder writes it with the messages that go with it.
    if (opening.notice) addNotice(store, opening.notice.level, opening.notice.text);
    agent.setHistory(opening.history, {
      ...(opening.lastAssistantAt !== undefined ? { lastAssistantAt: opening.lastAssistantAt } : {}),
      ...(opening.compactions ? { compactions: opening.compactions } : {}),
      ...(opening.prompts ? { prompts: opening.prompts } : {}),
    });
    this.opened.fire({ sessionId: id, how: opening.how });
    return { agent, recording, following, checkpoints };
  }

  private heard(sessionId: string, change: HistoryChanged['change']): void {
    this.changed.fire({ sessionId, change });
    if (change.reason === 'compaction' || change.reason === 'undo') this.compacted.fire({ sessionId, undone: change.reason === 'undo' });
  }

  // --- What the panel and the CLI ask of the open session ---

  /**
   * Sends a prompt; resolves with how its loop ended (undefined: nothing was sent). The prompt's
   * code checkpoint is begun first, so every change the turn makes belongs to it.
   */
  async submit(text: string, options: SubmitOptions = {}): Promise<ResultOf<A> | undefined> {
    const promptId = newId('user');
    const agent = this.current;
    this.prompted.fire({ sessionId: this.sessionId, promptId, text });
    await this.checkpointsOf?.begin(text, promptId);
    // Another session was opened meanwhile: the prompt belonged to the one that is gone.
    if (agent !== this.current) return undefined;
    return this.turn((a) => a.submit(text, promptId, options));
  }

  retry(): Promise<ResultOf<A> | undefined> {
    return this.turn((agent) => agent.retry());
  }

  continue(): Promise<ResultOf<A> | undefined> {
    return this.turn((agent) => agent.continue());
  }

  stop(): void {
    this.current.stop();
  }

  respondToPermission(requestId: string, decision: PermissionDecision): void {
    this.current.respondToPermission(requestId, decision);
  }

  async compactNow(focus?: string): Promise<boolean> {
    return this.saved(await this.current.compactNow(focus), 'compaction');
  }

  undoCompaction(id: string): boolean {
    return this.saved(this.current.undoCompaction(id), 'undo');
  }

  /** "Summarize from here" / "up to here": the preview; nothing changes until it is applied. */
  previewPartialCompaction(promptId: string, direction: 'from' | 'upTo', focus?: string): Promise<PartialCompactionPreview> {
    return this.current.previewPartialCompaction(promptId, direction, focus);
  }

  applyPartialCompaction(previewId: string): boolean {
    return this.saved(this.current.applyPartialCompaction(previewId), 'compaction');
  }

  cancelPartialCompaction(previewId?: string): void {
    this.current.cancelPartialCompaction(previewId);
  }

  rewindTo(promptId: string): boolean {
    if (!this.saved(this.current.rewindTo(promptId), 'rewind')) return false;
    this.rewound.fire({ sessionId: this.sessionId, promptId });
    return true;
  }

  /** Puts back what the newest rewind dropped, if nothing changed the conversation since. */
  undoRewind(): boolean {
    return this.saved(this.current.undoRewind(), 'rewind');
  }

  async forkFrom(promptId: string): Promise<boolean> {
    return this.fork(promptId);
  }

  private async turn(run: (agent: A) => Promise<unknown>): Promise<ResultOf<A> | undefined> {
    const agent = this.current;
    const sessionId = this.sessionId;
    const result = (await run(agent)) as ResultOf<A> | undefined;
    // A session switched away from mid-turn was saved as it went; the new one is not touched.
    if (agent !== this.current) return result;
    this.persist();
    this.ended.fire({ sessionId, result });
    return result;
  }

  private saved(ok: boolean, reason: string): boolean {
    if (ok) this.persist(reason);
    return ok;
  }

  /** Writes what changed since the last save (the panel's messages, a title); a failure is told, not thrown. */
  private persist(reason = 'update'): void {
    const { store } = this.deps;
    const s = store.getState();
    const title = s.sessionTitle === 'New session' ? titleFrom(s.messages) : undefined;
    if (title) store.setState((st) => ({ ...st, sessionTitle: title }));
    void this.recording.sync(this.current.conversation.history, reason);
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
    await this.left;
    await this.recording.flush();
  }

  async rename(id: string, title: string): Promise<void> {
    await this.deps.sessions.rename(id, title);
    this.adoptTitle(id, title);
  }

  /** A session was renamed elsewhere (the picker): the open one's recorder and title follow. */
  adoptTitle(id: string, title: string): void {
    if (id === this.recording.id) this.recording.recorder.adoptTitle(title);
    this.deps.store.setState((s) => (s.sessionId === id ? { ...s, sessionTitle: title } : s));
  }

  /** Background memory work finishes (within a limit) and everything reaches disk, before exit. */
  async flush(limitMs = 5000): Promise<void> {
    await Promise.race([this.current.drain(), new Promise((r) => setTimeout(r, limitMs).unref())]);
    await this.recording.flush();
  }

  dispose(): void {
    this.following.dispose();
    this.current.dispose();
    this.checkpointsOf?.dispose();
    for (const e of [this.opened, this.prompted, this.changed, this.compacted, this.rewound, this.forked, this.ended]) e.dispose();
  }
}
