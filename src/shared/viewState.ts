// What the chat panel draws. Host and webview both import this file, so it may depend on
// nothing but the language itself.
import type { McpServerView } from './mcpView';

import type { RestoreView, SummarizeView } from './undoView';

export type TokenLevel = 'ok' | 'warning' | 'error' | 'blocking';

export interface TokenView {
  /** Tokens the next request is expected to hold. */
  used: number;
  contextWindow: number;
  /** Context window less the room kept for the model's output. */
  effectiveWindow: number;
  warningAt: number;
  errorAt: number;
  autoCompactAt: number;
  blockingAt: number;
  level: TokenLevel;
}

export type ToolStatus = 'pending' | 'awaiting-permission' | 'running' | 'done' | 'error' | 'denied' | 'interrupted';

export type ActionCommand = 'setApiKey' | 'retry' | 'continue' | 'compact' | 'newSession' | 'openSettings' | 'openMemory' | 'selectModel' | 'showContextMarkdown' | 'undoRewind' | 'showContext' | 'resumeSession';

/** A button on a notice: a command, or a switch to a named model (a deprecated model's successor). */
export type NoticeAction = { label: string; command: ActionCommand } | { label: string; command: 'switchModel'; model: string };

/** The model in use, as the panel header and the status bar show it. */
export interface ModelView {
  /** The full id requests name (an alias resolved). */
  id: string;
  /** What the settings say: an alias, an id, an id with `[1m]`. */
  requested: string;
  displayName: string;
  contextWindow: number;
  lifecycle: 'active' | 'deprecated' | 'retired';
  retiresAt?: string;
  /** The thinking setting is on (the model thinks where it can). */
  thinking: boolean;
}

/** A proposed file change in brief: its size and its first hunk (unified-diff lines, ` `/`+`/`-` first). */
export interface DiffSummary {
  /** The file, relative to the workspace when inside it. */
  path: string;
  added: number;
  removed: number;
  /** The file does not exist yet. */
  isNew: boolean;
  /** The first hunk, as unified-diff lines; cut after a few dozen lines. */
  hunk: string;
  /** More hunks follow the first. */
  moreHunks: number;
}

export type ViewMessage =
  | {
      kind: 'user';
      id: string;
      /** What the user typed. */
      text: string;
      createdAt: number;
      /** Rewind and Fork are offered. */
      rewindable?: boolean;
      /** Files and selections that went with it: chips here; the model got their contents. */
      attachments?: readonly Attachment[];
    }
  | {
      kind: 'assistant';
      id: string;
      text: string;
      streaming: boolean;
      createdAt: number;
      /** The model's thinking before this answer, shown collapsed. */
      thinking?: string;
    }
  | {
      kind: 'tool';
      id: string;
      name: string;
      /** One line: what the tool is called on (a path, a command, a pattern). */
      summary: string;
      /** Pretty-printed JSON input. */
      input: string;
      status: ToolStatus;
      result?: string;
      /** While it runs: the end of what it has printed so far (a Bash command). Not saved. */
      liveOutput?: string;
      durationMs?: number;
      /** For a Write or Edit: the change it makes (or made), shown instead of its JSON input. */
      diff?: DiffSummary;
      createdAt: number;
    }
  | { kind: 'notice'; id: string; level: 'info' | 'warning' | 'error'; text: string; action?: NoticeAction; createdAt: number }
  | {
      kind: 'compaction';
      id: string;
      tokensBefore: number;
      tokensAfter: number;
      summary: string;
      canUndo: boolean;
      /** Undo was used: the conversation is as it was before this compaction. */
      undone?: boolean;
      /** The archived transcript from before this compaction, when there is one. */
      archive?: string;
      createdAt: number;
    };

export type ViewMessageKind = ViewMessage['kind'];

/** `allow-server`: every tool of the call's MCP server, remembered for this folder. */
export type PermissionDecision = 'allow-once' | 'allow-session' | 'allow-server' | 'deny';

export interface PermissionPromptView {
  requestId: string;
  toolName: string;
  /** Short line, e.g. the path or the command. */
  summary: string;
  /** Longer detail: the full input. */
  detail: string;
  /** The tool's input as JSON, so the prompt can show its fields (a Bash call's description). */
  input?: string;
  /** The tool card the request is about (its message id), so the panel can bring it into view. */
  toolUseId?: string;
  /** For a Write or Edit, the change it asks to make. */
  diff?: DiffSummary;
  /** What "Allow for this session" covers: the button's label and a sentence for its tooltip. */
  session?: { label: string; scope: string };
  /** For a tool of an MCP server: the server and the tool's own name ("Allow this server" is offered). */
  mcp?: { server: string; tool: string };
}

/** A request being retried: one transient line, replaced by the answer or by one final error. */
export interface RetryView {
  /** 1 for the first retry. */
  attempt: number;
  /** Why, in words (the API's message, never its JSON). */
  reason: string;
  /** When the next attempt goes out (ms since the epoch). */
  at: number;
}

/** Context from the editor waiting to go with the next message, shown as a chip in the composer. */
export type Attachment =
  | { kind: 'file'; id: string; path: string }
  | { kind: 'selection'; id: string; path: string; startLine: number; endLine: number; text: string };

export type ChatStatus = 'idle' | 'streaming' | 'running-tools' | 'awaiting-permission' | 'compacting';

/** One saved session, as the history list in the panel shows it. */
export interface HistoryItem {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  current: boolean;
  /** The user's messages, for search. */
  preview: string;
}

export interface ViewState {
  sessionId: string;
  sessionTitle: string;
  model: string;
  /** The model `model` resolves to, for the header's picker. */
  modelView: ModelView;
  status: ChatStatus;
  messages: readonly ViewMessage[];
  tokens: TokenView;
  permission: PermissionPromptView | null;
  apiKeySet: boolean;
  workspaceTrusted: boolean;
  /** True after Stop, while the interrupted turn can be picked up again. */
  canContinue: boolean;
  /** The session history list, while the panel shows it; null when closed. */
  history: readonly HistoryItem[] | null;
  /** The request is being retried; never part of the transcript. */
  retry: RetryView | null;
  /** Files and selections that go with the next message. */
  attachments: readonly Attachment[];
  /** The workspace's files while the composer's `@` picker is open; null when closed. */
  fileChoices: readonly string[] | null;
  /** The latest other sessions, for the empty state's one-click resume (loaded when it shows). */
  recent: readonly HistoryItem[];
  /** The MCP servers of this window: state, tools, tokens; a project server waiting for approval. */
  mcpServers: readonly McpServerView[];
  /** A code restore being previewed, or just applied; null otherwise. */
  restore: RestoreView | null;
  /** "Summarize from here / up to here" being asked for or previewed; null otherwise. */
  summarize: SummarizeView | null;
}
