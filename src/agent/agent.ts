import type { ModelInfo } from '../api/models';
import type { MessageParam, MessagesRequest } from '../api/types';
import { newId } from '../base/ids';
import { DisposableStore, type IDisposable } from '../base/lifecycle';
import type { ContextPreview } from '../context/breakdown';
import { promptRef } from '../compact/undo';
import type { PartialDirection } from '../compact/partial';
import type { Conversation } from '../conversation/conversation';
import { appendUserContent } from '../conversation/history';
import { tokenView } from '../conversation/thresholds';
import type { RecentFiles } from '../conversation/recentFiles';
import type { TokenMeter } from '../conversation/tokenMeter';
import type { MemoryDir } from '../memory/memdir';
import type { NoticeAction, PermissionDecision, ViewMessage } from '../shared/viewState';
import { addNotice } from '../state/actions';
import { modelViewOf, sameModelView } from '../state/modelView';
import type { AgentDeps } from './agentDeps';
import { PermissionBroker } from '../permissions/permissionBroker';
import { CompactionControl, type PartialPreview } from './compactionControl';
import type { SessionHistoryExtras, SubmitOptions } from '../sessions/sessionAgent';
import { KeyNotice } from './keyNotice';
import { modelCheck } from './modelNotice';
import { refusal } from './promptFit';
import { RewindControl } from './rewindControl';
import { reportOutcome } from './outcomeNotices';
import { placeholderMessage } from './requestFactory';
import type { LoopResult } from './queryLoop';
import { TurnRunner } from './turnRunner';

const CONTINUE_PROMPT = 'Continue from where you left off.';

/**
 * One session with the model, as the chat and the CLI drive it: a Conversation (history,
 * compaction records, prompt references), a TokenMeter (one figure for the next request), a PermissionBroker (what waits
 * on the user) and a TurnRunner (the loop streamed into the store), put together.
 */
export class Agent implements IDisposable {
  readonly conversation: Conversation;
  readonly meter: TokenMeter;
  /** Files the agent read, to put back after a compaction. */
  readonly recentReads: RecentFiles;
  private readonly broker: PermissionBroker;
  private readonly runner: TurnRunner;
  private readonly compaction: CompactionControl;
  private readonly rewind: RewindControl;
  private readonly disposables = new DisposableStore();
  private controller: AbortController | undefined;
  private lastOutcome: LoopResult['outcome'] | undefined;
  /** Refuses a model the API does not know, warns once of a deprecated one (before each prompt). */
  private readonly modelCheck: () => Promise<boolean>;
  /** The notice that asks for a key while a message waits (and offers to send it once one is set). */
  private readonly keyNotice: KeyNotice;

  constructor(private readonly deps: AgentDeps) {
    const { store, conversation, meter, compactor } = deps;
    this.conversation = conversation;
    this.meter = meter;
    this.recentReads = deps.recentReads;
    this.broker = new PermissionBroker(deps.permissions, store);
    this.modelCheck = modelCheck(store, deps.models);
    this.keyNotice = new KeyNotice(store);
    this.runner = new TurnRunner({
      store,
      runtime: deps.runtime,
      log: deps.log,
      cwd: deps.cwd,
      tools: deps.tools,
      conversation,
      meter,
      broker: this.broker,
      buildRequest: (h, opts) => deps.requests.build(h, opts),
      maxTurns: deps.maxTurns,
      thresholds: deps.thresholds,
      ...(compactor ? { compactor } : {}),
      ...(deps.afterTools ? { afterTools: deps.afterTools } : {}),
      ...(deps.reviseResult ? { reviseResult: deps.reviseResult } : {}),
      ...(deps.loopEvents ? { loopEvents: deps.loopEvents } : {}),
      onToolDone: (name, input) => this.noteRead(name, input),
    });
    this.disposables.add(conversation);
    this.disposables.add(conversation.onDidChange((e) => meter.invalidateFrom(e.from)));
    this.compaction = new CompactionControl({
      store,
      ...(compactor ? { compactor } : {}),
      ...(deps.partial ? { partial: deps.partial } : {}),
      ...(deps.afterPartial ? { afterPartial: deps.afterPartial } : {}),
      conversation,
      meter,
      recentReads: this.recentReads,
      busy: () => this.busy,
      publishTokens: () => this.publishTokens(),
    });
    this.disposables.add(conversation.onDidChange((e) => this.compaction.historyChanged(e)));
    this.rewind = new RewindControl({
      store,
      conversation,
      busy: () => this.busy,
      replaced: () => {
        meter.reset();
        this.publishTokens();
      },
    });
    if (compactor) {
      this.disposables.add(compactor.onDidCompact((e) => this.compaction.compacted(e)));
      this.disposables.add(compactor.onNotice(({ level, text }) => addNotice(store, level, text)));
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
    return this.deps.memory?.memdir;
  }

  /** Resolves when background memory work has finished (before exit). */
  async drain(): Promise<void> {
    await this.deps.memory?.drain();
  }

  /** Tokens the next request will hold (system + tools + messages), as well as we know before sending it. */
  usedTokens(history: readonly MessageParam[] = this.conversation.history): number {
    return this.meter.used(history);
  }

  /** Puts the token figure of the current history and the model in use into the store (status bar, panel, saved session). */
  publishTokens(): void {
    const used = this.usedTokens();
    const view = modelViewOf(this.model(), this.deps.store.getState().settings.thinking);
    const thresholds = this.deps.thresholds();
    this.deps.store.setState((s) => ({ ...s, tokens: tokenView(used, thresholds), modelView: sameModelView(s.modelView, view) ? s.modelView : view }));
  }

  /** The model the settings name, as the catalog knows it now (an alias resolved to its id). */
  model(): ModelInfo {
    return this.deps.model();
  }

  /**
   * Opens the session with this history (new, resume, fork, import), with the compaction records
   * and prompt references it had; token use is estimated from the whole request until the next
   * response. `lastAssistantAt` (from a transcript) lets a resumed session know its cache has gone cold.
   */
  setHistory(history: MessageParam[], opts: SessionHistoryExtras & { lastAssistantAt?: number } = {}): void {
    this.conversation.load(history, { ...(opts.compactions ? { records: opts.compactions } : {}), ...(opts.prompts ? { prompts: opts.prompts } : {}) });
    this.meter.reset();
    if (opts.lastAssistantAt !== undefined) this.runner.lastAssistantAt = opts.lastAssistantAt;
    this.publishTokens();
    // The figure includes the system prompt and tools once the first request has been built.
    void this.deps.requests
      .build(history.length ? history : [placeholderMessage()])
      .then(() => this.publishTokens())
      .catch(() => undefined);
  }

  private noteRead(name: string, input: unknown): void {
    const fp = (input as { file_path?: unknown } | undefined)?.file_path;
    if (this.deps.tools.get(name)?.traits.returnsFileContent && typeof fp === 'string') this.recentReads.note(fp);
  }

  /** The main loop's request for a history: forks and the summary extend it to read its cache. */
  mainRequest(history: readonly MessageParam[]): Promise<MessagesRequest> {
    return this.deps.requests.build(history);
  }

  /** The API's own count of the request this history would make (count_tokens). */
  exactTokens(history: readonly MessageParam[]): Promise<number> {
    return this.deps.requests.exactTokens(history);
  }

  /** What the next request would hold, by category (Show Context, `threadline context`). */
  previewContext(): Promise<ContextPreview> {
    return this.deps.requests.preview(this.messages);
  }

  /** What a manual compaction would do now, in one sentence (shown before the user confirms). */
  compactPreview(): string {
    return this.compaction.preview(this.messages);
  }

  /** Manual compaction ("Compact Conversation", /compact). */
  compactNow = (focus?: string): Promise<boolean> => this.compaction.compactNow(focus);
  /** Undoes any compaction whose summary is still in the conversation; what came after stays. */
  undoCompaction = (id: string): boolean => this.compaction.undo(id);

  // "Summarize from here" / "up to here" from a user message: previewed (nothing changes yet), then
  // applied (false: the preview was dismissed or replaced, or a turn runs), or cancelled.
  previewPartialCompaction = (messageId: string, direction: PartialDirection, focus?: string): Promise<PartialPreview> => this.compaction.previewPartial(messageId, direction, focus);
  applyPartialCompaction = (previewId: string): boolean => this.compaction.applyPartial(previewId);
  cancelPartialCompaction = (previewId?: string): void => this.compaction.cancelPartial(previewId);

  // Rewind (with its Undo) and a fork's starting point: see RewindControl. Nothing on disk changes.
  rewindTo = (viewId: string): boolean => this.rewind.rewindTo(viewId);
  undoRewind = (): boolean => this.rewind.undo();
  forkPoint = (viewId: string): ({ history: MessageParam[]; messages: ViewMessage[] } & SessionHistoryExtras) | undefined => this.rewind.forkPoint(viewId);

  /**
   * Sends a prompt and runs the loop it starts; resolves with how that loop ended, or undefined
   * when nothing was sent (no key is set, the model is refused). `id` is the prompt's panel
   * message: Rewind and Fork name it. `text` is what the user typed (the panel shows it, the
   * title comes from it); `options.modelText` what the model receives (attached files before it).
   * A message that cannot be sent (too big for any conversation, or for this one with automatic
   * compaction off) is refused before it touches the history: a blocked result with `returned`.
   */
  async submit(text: string, id: string = newId('user'), options: SubmitOptions = {}): Promise<LoopResult | undefined> {
    const { store, compactor } = this.deps;
    const content = options.modelText ?? text;
    this.rewind.retire();
    const refused = refusal(content, { meter: this.meter, settings: store.getState().settings, thresholds: this.deps.thresholds(), compactor, used: this.usedTokens(), handsBack: options.handsBack === true });
    if (refused) return this.refuse(refused.text, refused.action);
    // Only a message that starts a new user turn can be rewound to cleanly.
    const clean = this.messages.at(-1)?.role !== 'user';
    // Taken before the message joins the history: how Rewind, Fork and a partial compaction find it again.
    const ref = promptRef(this.messages, this.conversation.compactions, content);
    const attachments = options.attachments?.length ? { attachments: options.attachments } : {};
    store.setState((s) => ({ ...s, messages: [...s.messages, { kind: 'user', id, text, createdAt: Date.now(), ...(clean ? { rewindable: true } : {}), ...attachments }] }));
    this.conversation.set(appendUserContent(this.messages, [{ type: 'text', text: content }]), 'user', { prompts: { [id]: ref } });
    return this.run();
  }

  /** A message refused before it touched the history: said in a notice, reported as a blocked loop (the CLI exits with it). */
  private refuse(text: string, action: NoticeAction): LoopResult {
    addNotice(this.deps.store, 'error', text, action);
    this.lastOutcome = 'blocked';
    return { history: [...this.messages], outcome: 'blocked', blocked: text, turns: 0, finalText: '', returned: true };
  }

  async retry(): Promise<LoopResult | undefined> {
    if (this.messages.at(-1)?.role !== 'user') return undefined;
    return this.run();
  }

  async continue(): Promise<LoopResult | undefined> {
    this.rewind.retire();
    this.conversation.set(appendUserContent(this.messages, [{ type: 'text', text: CONTINUE_PROMPT }]), 'user');
    return this.run();
  }

  /** A key was stored: a message waiting for one is offered to be sent (see KeyNotice). */
  keyArrived(): void {
    this.keyNotice.arrived();
  }

  /** Stop: the running turn, a compaction, and whatever waits for a permission answer. */
  stop(): void {
    this.controller?.abort();
    this.compaction.stop();
    this.broker.denyAll();
  }

  respondToPermission(requestId: string, decision: PermissionDecision): void {
    this.broker.respond(requestId, decision);
  }

  private async run(): Promise<LoopResult | undefined> {
    const { store } = this.deps;
    if (this.controller) return undefined;
    const client = await this.deps.client();
    if (!client) {
      this.keyNotice.ask();
      return undefined;
    }
    this.keyNotice.answered();
    const controller = new AbortController();
    this.controller = controller;
    let result: LoopResult;
    try {
      if (!(await this.modelCheck())) return undefined;
      store.setState((s) => ({ ...s, status: 'streaming', canContinue: false }));
      result = await this.runner.run(client, controller.signal);
      // "Prompt is too long" from the API: compact and try the turn once more, instead of failing it.
      if (result.outcome === 'error' && result.error?.kind === 'prompt_too_long' && (await this.compaction.afterTooLong(controller.signal))) {
        store.setState((s) => ({ ...s, status: 'streaming' }));
        result = await this.runner.run(client, controller.signal);
      }
    } finally {
      this.controller = undefined;
    }
    this.lastOutcome = result.outcome;
    store.setState((s) => ({ ...s, status: 'idle', permission: null, canContinue: result.outcome === 'aborted' || result.outcome === 'max_turns' || result.outcome === 'blocked' }));
    reportOutcome(store, result, this.deps.maxTurns());
    this.deps.memory?.afterLoop(result);
    return result;
  }

  dispose(): void {
    this.stop();
    this.disposables.dispose();
  }
}
