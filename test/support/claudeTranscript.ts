// Writes transcripts in Claude Code's format, line for line as the recorded fixtures show it
// (test/fixtures/claude-code/): a line per block of an answer under one API message id, each
// tool result hanging off the line of its own call, attachments between a prompt and its answer,
// compact boundaries that start a new root with the summary after them and the kept messages
// listed, `last-prompt` markers, queue lines. Beside the lines it keeps its own plain model of the
// conversation Claude Code would resume (`expected`), which tests hold an import against.

type Json = Record<string, unknown>;

export type AnswerBlock = { type: 'text'; text: string } | { type: 'thinking'; thinking: string } | { type: 'tool_use'; name: string; input: Json };

/** A message of the conversation as Claude Code resumes it, in the writer's own bookkeeping. */
export interface ModelMessage {
  uuid: string;
  role: 'user' | 'assistant';
  /** Set on a prompt the user typed. */
  prompt?: string;
  toolUseIds: string[];
  isSummary?: boolean;
}

export class ClaudeTranscriptWriter {
  private readonly out: string[] = [];
  private n = 0;
  private clock: number;
  /** The line the next message hangs off. */
  private leaf: string | null = null;
  /** The newest message line, which `last-prompt` markers name (never a progress line). */
  private messageLeaf: string | null = null;
  /** What Claude Code would resume with: the branch, from the last summary on. */
  expected: ModelMessage[] = [];
  readonly toolIds = new Set<string>();
  readonly sidechainTexts: string[] = [];
  readonly abandonedPrompts: string[] = [];
  readonly summarisedPrompts: string[] = [];

  constructor(
    readonly sessionId = 'c0ffee00-0000-4000-8000-000000000001',
    readonly cwd = '/work/project',
    start = Date.parse('2026-01-01T00:00:00Z'),
  ) {
    this.clock = start;
  }

  private uuid(): string {
    const hex = (this.n++).toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${hex}`;
  }

  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  private common(): Json {
    return { userType: 'external', entrypoint: 'sdk-cli', cwd: this.cwd, sessionId: this.sessionId, version: '2.1.197', gitBranch: 'main' };
  }

  raw(line: string): void {
    this.out.push(line);
  }

  private write(line: Json): void {
    this.out.push(JSON.stringify(line));
  }

  private node(type: 'user' | 'assistant' | 'system' | 'attachment', body: Json, opts: { sidechain?: boolean; parent?: string | null } = {}): string {
    if (!opts.sidechain) this.applyRewind();
    const uuid = this.uuid();
    this.write({ parentUuid: opts.parent === undefined ? this.leaf : opts.parent, isSidechain: opts.sidechain ?? false, ...body, type, uuid, timestamp: this.now(), ...this.common() });
    if (!opts.sidechain) {
      this.leaf = uuid;
      this.messageLeaf = uuid;
    }
    return uuid;
  }

  private marker(): void {
    const lastPrompt = [...this.expected].reverse().find((m) => m.prompt)?.prompt;
    this.write({ type: 'last-prompt', ...(lastPrompt ? { lastPrompt } : {}), leafUuid: this.messageLeaf, sessionId: this.sessionId });
  }

  /** A prompt as `claude -p` writes it: queue lines, the message, then listing attachments. */
  prompt(text: string, opts: { attachments?: number } = {}): void {
    this.write({ type: 'queue-operation', operation: 'enqueue', timestamp: this.now(), sessionId: this.sessionId, content: text });
    this.write({ type: 'queue-operation', operation: 'dequeue', timestamp: this.now(), sessionId: this.sessionId });
    const uuid = this.node('user', { promptId: `p${this.n}`, message: { role: 'user', content: text }, permissionMode: 'default', promptSource: 'sdk' });
    this.expected.push({ uuid, role: 'user', prompt: text, toolUseIds: [] });
    for (let i = 0; i < (opts.attachments ?? 0); i++) this.node('attachment', { attachment: { type: i % 2 ? 'skill_listing' : 'agent_listing_delta', content: '- a listing Threadline has no use for' } });
  }

  /** One API message, a line per block; returns the ids of its tool calls and the lines that carry them. */
  answer(blocks: AnswerBlock[]): Array<{ id: string; line: string }> {
    const messageId = `msg_${this.n.toString(36).padStart(8, '0')}`;
    const calls: Array<{ id: string; line: string }> = [];
    const lines: string[] = [];
    for (const b of blocks) {
      let content: Json;
      if (b.type === 'thinking') content = { ...b, signature: `sig-${this.n}` };
      else if (b.type === 'text') content = { ...b, citations: null };
      else content = { type: 'tool_use', id: `toolu_${String(this.n).padStart(6, '0')}`, name: b.name, input: b.input };
      const line = this.node('assistant', {
        message: { id: messageId, type: 'message', role: 'assistant', model: 'claude-opus-4-8', content: [content], stop_reason: calls.length || b.type === 'tool_use' ? 'tool_use' : 'end_turn', usage: { input_tokens: 3, output_tokens: 5 } },
        requestId: `req_${this.n}`,
      });
      lines.push(line);
      if (content.type === 'tool_use') {
        calls.push({ id: content.id as string, line });
        this.toolIds.add(content.id as string);
      }
    }
    if (lines.length) {
      this.expected.push({ uuid: lines[0]!, role: 'assistant', toolUseIds: calls.map((c) => c.id) });
      this.lineMap.set(lines[0]!, lines);
    }
    return calls;
  }

  /** Each result hangs off the line of its own call; the next message follows the last one written. */
  results(calls: Array<{ id: string; line: string }>, contents: string[], opts: { order?: number[] } = {}): void {
    const order = opts.order ?? calls.map((_, i) => i);
    const lines: string[] = [];
    for (const i of order) {
      const c = calls[i]!;
      lines.push(this.node('user', { message: { role: 'user', content: [{ tool_use_id: c.id, type: 'tool_result', content: contents[i] ?? '' }] }, toolUseResult: { ok: true }, sourceToolAssistantUUID: c.line }, { parent: c.line }));
    }
    if (lines.length) {
      this.expected.push({ uuid: lines[0]!, role: 'user', toolUseIds: [] });
      this.lineMap.set(lines[0]!, lines);
    }
  }

  /** A progress line sits in the chain: the next message names it as its parent. */
  progress(): void {
    const uuid = this.uuid();
    this.write({ type: 'progress', uuid, parentUuid: this.leaf, data: { type: 'bash_progress' }, timestamp: this.now(), ...this.common() });
    this.leaf = uuid;
  }

  /** An API error Claude Code records as an assistant message of its own. */
  apiError(): void {
    this.node('assistant', { message: { id: `err${this.n}`, role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 529 Overloaded' }] }, isApiErrorMessage: true });
  }

  /** Sub-agent work written inline, as older versions did. */
  sidechain(text: string): void {
    const parent = this.leaf;
    const u = this.node('user', { message: { role: 'user', content: text } }, { sidechain: true, parent });
    this.node('assistant', { message: { id: `side${this.n}`, role: 'assistant', model: 'claude-haiku', content: [{ type: 'text', text: `${text} (done)` }] } }, { sidechain: true, parent: u });
    this.sidechainTexts.push(text);
  }

  /**
   * A compaction: boundary (a new root), the summary message, the re-attached files; the last
   * `keep` messages are listed as kept verbatim, and come right after the summary.
   */
  compact(summary: string, opts: { keep?: number; files?: Array<{ path: string; content: string }>; trigger?: 'manual' | 'auto'; listKept?: 'messages' | 'segment' } = {}): void {
    this.applyRewind();
    let keepN = Math.min(opts.keep ?? 0, this.expected.length);
    // Kept messages start at a message of their own, never at a tool result whose call is cut off.
    while (keepN > 0 && this.expected[this.expected.length - keepN]!.role === 'user' && !this.expected[this.expected.length - keepN]!.prompt) keepN--;
    const kept = keepN ? this.expected.slice(-keepN) : [];
    for (const m of this.expected.slice(0, this.expected.length - keepN)) if (m.prompt) this.summarisedPrompts.push(m.prompt);
    this.marker();
    const boundary = this.uuid();
    const anchor = this.uuid();
    const keptUuids = kept.flatMap((m) => this.linesOf(m));
    // A head-and-tail segment is walked by the parent links on disk, which cannot reach the sibling
    // results of parallel calls nor messages an earlier compaction kept (they were relinked in
    // memory only); Claude Code lists such messages one by one, and so does this writer.
    const linear = kept.every((m) => (m.role === 'assistant' || this.linesOf(m).length === 1) && !this.keptBefore.has(m.uuid));
    const listed = kept.length
      ? opts.listKept === 'segment' && linear
        ? { preservedSegment: { headUuid: keptUuids[0], anchorUuid: anchor, tailUuid: keptUuids.at(-1) } }
        : { preservedMessages: { anchorUuid: anchor, uuids: keptUuids, allUuids: keptUuids } }
      : {};
    this.write({
      parentUuid: null,
      logicalParentUuid: this.leaf,
      isSidechain: false,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: this.now(),
      uuid: boundary,
      level: 'info',
      compactMetadata: { trigger: opts.trigger ?? 'auto', preTokens: 150_000, ...listed },
      ...this.common(),
    });
    const text = `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n${summary}`;
    this.write({ parentUuid: boundary, isSidechain: false, type: 'user', message: { role: 'user', content: text }, isVisibleInTranscriptOnly: true, isCompactSummary: true, uuid: anchor, timestamp: this.now(), ...this.common() });
    this.leaf = anchor;
    this.messageLeaf = anchor;
    for (const f of opts.files ?? []) {
      this.node('attachment', { attachment: { type: 'file', filename: f.path, content: { type: 'text', file: { filePath: f.path, content: f.content, numLines: 1, startLine: 1, totalLines: 1 } }, displayPath: f.path } });
    }
    this.expected = [{ uuid: anchor, role: 'user', toolUseIds: [], isSummary: true }, ...kept];
    this.keptBefore = new Set(kept.map((m) => m.uuid));
  }

  private keptBefore = new Set<string>();

  // Every line a model message spans (a line per block), so kept lists name all of them.
  private readonly lineMap = new Map<string, string[]>();

  private linesOf(m: ModelMessage): string[] {
    return this.lineMap.get(m.uuid) ?? [m.uuid];
  }

  /** Rewinds to an earlier answer after the last summary: the next prompt starts a branch there. */
  rewindTo(index: number, opts: { explicit?: boolean } = {}): boolean {
    const target = this.expected[index];
    if (!target || target.role !== 'assistant' || target.toolUseIds.length) return false;
    this.pending = { index, leaf: this.leaf, messageLeaf: this.messageLeaf };
    this.leaf = this.lastLineOf(target);
    this.messageLeaf = this.leaf;
    // The interactive rewind records where it went; the SDK's --resume-session-at writes nothing,
    // so it only shows once something is written after it.
    if (opts.explicit) {
      this.write({ type: 'last-prompt', leafUuid: this.messageLeaf, explicit: true, sessionId: this.sessionId });
      this.applyRewind();
    }
    return true;
  }

  private pending: { index: number; leaf: string | null; messageLeaf: string | null } | undefined;

  private applyRewind(): void {
    if (!this.pending) return;
    for (const m of this.expected.slice(this.pending.index + 1)) if (m.prompt) this.abandonedPrompts.push(m.prompt);
    this.expected = this.expected.slice(0, this.pending.index + 1);
    this.pending = undefined;
  }

  private lastLineOf(m: ModelMessage): string {
    return this.lineMap.get(m.uuid)?.at(-1) ?? m.uuid;
  }

  finish(opts: { torn?: boolean } = {}): string {
    if (this.pending) {
      // Nothing followed a rewind that leaves no trace: the session is where it was.
      this.leaf = this.pending.leaf;
      this.messageLeaf = this.pending.messageLeaf;
      this.pending = undefined;
    }
    this.marker();
    const text = this.out.join('\n') + '\n';
    return opts.torn ? `${text}{"parentUuid":"${this.messageLeaf}","isSidechain":false,"type":"user","mess` : text;
  }
}
