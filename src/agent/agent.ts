import type { ModelInfo } from '../api/models';
import type { MessageParam, MessagesRequest } from '../api/types';
import { newId } from '../base/ids';
import { DisposableStore, type IDisposable } from '../base/lifecycle';
import type { ContextPreview } from '../context/breakdown';
import { Conversation } from '../conversation/conversation';
import { appendUserContent } from '../conversation/history';
import { thresholdsFor, tokenView } from '../conversation/thresholds';
import { RecentFiles } from '../conversation/recentFiles';
import { TokenMeter } from '../conversation/tokenMeter';
import type { NoticeAction, PermissionDecision, ViewMessage } from '../shared/viewState';
import { addNotice } from '../state/actions';
import { modelViewOf, sameModelView } from '../state/modelView';
import type { ChatRunner, SubmitOptions, SubmitResult } from './chatRunner';
import { PermissionBroker, type PermissionEngine } from './permissionBroker';
import { CompactionControl } from './compactionControl';
import { KeyNotice } from './keyNotice';
import { refusal } from './promptFit';
import { RewindControl } from './rewindControl';
import { noteModelWarning } from './modelNotice';
import { reportOutcome } from './outcomeNotices';
import { placeholderMessage, RequestFactory, type RequestFactoryDeps } from './requestFactory';
import type { LoopResult } from './queryLoop';
import { TurnRunner, type TurnRunnerDeps } from './turnRunner';
import type { MemoryDir } from '../memory/memdir';

export const CONTINUE_PROMPT = 'Continue from where you left off.';

export interface AgentDeps extends Omit<TurnRunnerDeps, 'conversation' | 'meter' | 'broker' | 'buildRequest' | 'onToolCall'>, Omit<RequestFactoryDeps, 'settings' | 'meter' | 'tools'> {
  permissions: PermissionEngine;
  /** Waits for background work (memory extraction, session notes). */
  drain?(): Promise<void>;
  /** The memory folder, when auto memory is on. */
  memdir?: MemoryDir;
  /** Called after each complete loop; sessions and memory hook in here. */
  onLoopComplete?(result: LoopResult, request: MessagesRequest | undefined): void;
}

/**
 * One session with the model, as the chat and the CLI drive it: a Conversation (history, undo,
 * rewind marks), a TokenMeter (one figure for the next request), a PermissionBroker (what waits
 * on the user) and a TurnRunner (the loop streamed into the store), put together.
 */
export class Agent implements ChatRunner, IDisposable {
  readonly conversation = new Conversation();
  readonly meter = new TokenMeter();
  private readonly broker: PermissionBroker;
  private readonly runner: TurnRunner;
  private readonly requests: RequestFactory;
  private readonly compaction: CompactionControl;
  private readonly rewind: RewindControl;
  private readonly disposables = new DisposableStore();
  private controller: AbortController | undefined;
  private lastOutcome: LoopResult['outcome'] | undefined;
  /** The notice that asks for a key while a message waits (and offers to send it once one is set). */
  private readonly keyNotice: KeyNotice;
  /** Files the agent read, to put back after a compaction. */
  readonly recentReads = new RecentFiles();

  constructor(private readonly deps: AgentDeps) {
    this.broker = new PermissionBroker(deps.permissions, deps.store);
    this.keyNotice = new KeyNotice(deps.store);
    this.requests = new RequestFactory({ ...deps, settings: () => deps.store.getState().settings, meter: this.meter });
    this.runner = new TurnRunner({
      ...deps,
      conversation: this.conversation,
      meter: this.meter,
      broker: this.broker,
      buildRequest: (h, opts) => this.requests.build(h, opts),
      onToolCall: (name, input) => this.noteToolCall(name, input),
    });
    this.disposables.add(this.conversation);
    this.disposables.add(this.conversation.onDidChange((e) => this.meter.invalidateFrom(e.from)));
    this.rewind = new RewindControl({ store: deps.store, conversation: this.conversation, busy: () => this.busy, setHistory: (h) => this.setHistory(h) });
    this.compaction = new CompactionControl({ ...deps, conversation: this.conversation, meter: this.meter, recentReads: this.recentReads, busy: () => this.busy, publishTokens: () => this.publishTokens() });
    if (deps.compactor) {
      this.disposables.add(deps.compactor.onDidCompact((e) => this.compaction.compacted(e)));
      this.disposables.add(deps.compactor.onNotice(({ level, text }) => addNotice(deps.store, level, text)));
    }
  }

  get messages(): readonly MessageParam[] {
    return this.conversation.history;
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  get outcome(): LoopResult['outcome'] | undefined {
    return this.lastOutcome;
  }

  get memdir(): MemoryDir | undefined {
    return this.deps.memdir;
  }

  /** Resolves when background memory work has finished (before exit). */
  async drain(): Promise<void> {
    await this.deps.drain?.();
  }

  /** Tokens the next request will hold (system + tools + messages), as well as we know before sending it. */
  usedTokens(history: readonly MessageParam[] = this.conversation.history): number {
    return this.meter.used(history);
  }

  /** Puts the token figure of the current history and the model in use into the store (status bar, panel, saved session). */
  publishTokens(): void {
    const used = this.usedTokens();
    const view = modelViewOf(this.model(), this.deps.store.getState().settings.thinking);
    this.deps.store.setState((s) => ({ ...s, tokens: tokenView(used, thresholdsFor(s.settings, this.deps.models)), modelView: sameModelView(s.modelView, view) ? s.modelView : view }));
  }

  /** The model the settings name, as the catalog knows it now (an alias resolved to its id). */
  model(): ModelInfo {
    return this.requests.model();
  }

  /**
   * Replaces the history (resume, fork, rewind, import); token use is estimated from the whole
   * request until the next response. `lastAssistantAt` (from a transcript) lets a resumed
   * session know its cache has gone cold.
   */
  setHistory(history: MessageParam[], opts: { lastAssistantAt?: number } = {}): void {
    this.conversation.set(history, 'load');
    if (!history.length) this.conversation.clearMarks();
    this.conversation.retireUndo();
    this.meter.reset();
    if (opts.lastAssistantAt !== undefined) this.runner.lastAssistantAt = opts.lastAssistantAt;
    this.publishTokens();
    // The figure includes the system prompt and tools once the first request has been built.
    void this.requests
      .build(history.length ? history : [placeholderMessage()])
      .then(() => this.publishTokens())
      .catch(() => undefined);
  }

  private noteToolCall(name: string, input: unknown): void {
    const fp = (input as { file_path?: unknown } | undefined)?.file_path;
    if (this.deps.tools.get(name)?.traits.returnsFileContent && typeof fp === 'string') this.recentReads.note(fp);
  }

  /** The main loop's request for a history: forks and the summary extend it to read its cache. */
  mainRequest(history: readonly MessageParam[]): Promise<MessagesRequest> {
    return this.requests.build(history);
  }

  /** The API's own count of the request this history would make (count_tokens). */
  exactTokens(history: readonly MessageParam[]): Promise<number> {
    return this.requests.exactTokens(history);
  }

  /** What the next request would hold, by category (Show Context, `threadline context`). */
  previewContext(): Promise<ContextPreview> {
    return this.requests.preview(this.messages);
  }

  /** What a manual compaction would do now, in one sentence (shown before the user confirms). */
  compactPreview(): string {
    return this.compaction.preview(this.messages);
  }

  /** Manual compaction ("Compact Conversation", /compact). */
  compactNow(focus?: string): Promise<boolean> {
    return this.compaction.compactNow(focus);
  }

  /** Restores the transcript archived by the newest compaction, if nothing happened since. */
  undoCompaction(id: string): boolean {
    return this.compaction.undo(id);
  }

  // Rewind (with its Undo) and a fork's starting point: see RewindControl. Nothing on disk changes.
  rewindTo = (viewId: string): boolean => this.rewind.rewindTo(viewId);
  undoRewind = (): boolean => this.rewind.undo();
  forkPoint = (viewId: string): { history: MessageParam[]; messages: ViewMessage[] } | undefined => this.rewind.forkPoint(viewId);

  /**
   * Sends what the user typed (`text`, shown in the panel and used for the title) with what goes
   * to the model besides (`modelText`: attached files before it). A message that cannot be sent
   * in any conversation (the system prompt, the tools and it alone reach the limit) is refused
   * before it touches the history, and handed back.
   */
  async submit(text: string, options: SubmitOptions = {}): Promise<SubmitResult> {
    const { store, compactor } = this.deps;
    const content = options.modelText ?? text;
    this.rewind.retire();
    const refused = refusal(content, { meter: this.meter, settings: store.getState().settings, models: this.deps.models, compactor, used: this.usedTokens() });
    if (refused) return this.refuse(refused.text, refused.action);
    const id = newId('user');
    // Only a message that starts a new user turn can be rewound to cleanly.
    const clean = this.messages.at(-1)?.role !== 'user';
    if (clean) this.conversation.mark(id);
    const attachments = options.attachments?.length ? { attachments: options.attachments } : {};
    store.setState((s) => ({ ...s, messages: [...s.messages, { kind: 'user', id, text, createdAt: Date.now(), ...(clean ? { rewindable: true } : {}), ...attachments }] }));
    this.conversation.set(appendUserContent(this.messages, [{ type: 'text', text: content }]), 'user');
    await this.run();
    return { returned: false };
  }

  /** A message refused before it touched the history: said in a notice, reported as a blocked loop (the CLI exits with it). */
  private refuse(text: string, action: NoticeAction): SubmitResult {
    addNotice(this.deps.store, 'error', text, action);
    this.lastOutcome = 'blocked';
    this.deps.onLoopComplete?.({ history: [...this.messages], outcome: 'blocked', blocked: text, turns: 0, finalText: '' }, undefined);
    return { returned: true };
  }

  async retry(): Promise<void> {
    if (this.messages.at(-1)?.role !== 'user') return;
    await this.run();
  }

  async continue(): Promise<void> {
    this.rewind.retire();
    this.conversation.set(appendUserContent(this.messages, [{ type: 'text', text: CONTINUE_PROMPT }]), 'user');
    await this.run();
  }

  /** A key was stored: a message waiting for one is offered to be sent (see KeyNotice). */
  keyArrived(): void {
    this.keyNotice.arrived();
  }

  stop(): void {
    this.controller?.abort();
    this.broker.denyAll();
  }

  respondToPermission(requestId: string, decision: PermissionDecision): void {
    this.broker.respond(requestId, decision);
  }

  private async run(retriedTooLong = false): Promise<void> {
    const { store, compactor } = this.deps;
    if (this.controller) return;
    const client = await this.deps.createClient();
    if (!client) {
      this.keyNotice.ask();
      return;
    }
    this.keyNotice.answered();
    const controller = new AbortController();
    this.controller = controller;
    if (!(await this.checkModel())) {
      this.controller = undefined;
      return;
    }
    store.setState((s) => ({ ...s, status: 'streaming', canContinue: false }));
    let outcome;
    try {
      outcome = await this.runner.run(client, controller.signal);
    } finally {
      this.controller = undefined;
    }
    const { result, lastRequest } = outcome;
    this.lastOutcome = result.outcome;
    // "Prompt is too long" from the API: compact and try the turn once more, instead of failing it.
    if (result.outcome === 'error' && result.error?.kind === 'prompt_too_long' && compactor && !retriedTooLong) {
      store.setState((s) => ({ ...s, status: 'compacting' }));
      try {
        await compactor.compact(this.messages, 'prompt_too_long');
        store.setState((s) => ({ ...s, status: 'idle' }));
        await this.run(true);
        return;
      } catch {
        // Reported by the compactor; fall through to the error notice.
      }
    }
    store.setState((s) => ({ ...s, status: 'idle', permission: null, canContinue: result.outcome === 'aborted' || result.outcome === 'max_turns' || result.outcome === 'blocked' }));
    reportOutcome(store, result, this.deps.maxTurns());
    this.deps.onLoopComplete?.(result, lastRequest);
  }

  private readonly warned = new Set<string>();

  /** Refuses a model the API does not know (the message is kept, as without a key); warns once about a deprecated one. */
  private async checkModel(): Promise<boolean> {
    const { store } = this.deps;
    const s = store.getState().settings;
    const r = await this.deps.models?.resolve?.(s.model, { contextWindow: s.contextWindow });
    if (!r) return true;
    if (!r.ok) {
      addNotice(store, 'error', `${r.error} Your message is kept: choose another model, then press Retry.`, { label: 'Retry', command: 'retry' });
      return false;
    }
    if (r.warning && !this.warned.has(r.warning)) {
      this.warned.add(r.warning);
      noteModelWarning(store, this.deps.models, r);
    }
    return true;
  }

  dispose(): void {
    this.stop();
    this.disposables.dispose();
  }
}
