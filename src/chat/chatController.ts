import { newId } from '../base/ids';
import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import { addNotice, appendMessage } from '../state/actions';
import type { Store } from '../shared/store';
import type { ChatHandlers } from '../state/viewSync';
import type { ChatRunner } from '../agent/chatRunner';
import type { ContextReport } from '../shared/contextView';
import type { HostToWebviewMessage } from '../shared/protocol';
import type { ActionCommand, HistoryItem } from '../shared/viewState';
import { attachmentHandlers, withAttachments, type AttachmentSource } from './attachments';

export interface ChatControllerDeps {
  store: Store<AppState>;
  log: Logger;
  hasApiKey(): Promise<boolean>;
  runCommand(command: ActionCommand): void;
  runner?: ChatRunner;
  /** Opens an archived pre-compaction transcript, read-only. */
  openArchive?(path: string, session: { title: string; archivedAt: number }): Promise<void>;
  /** The session history shown in the panel (the shell owns the store of sessions). */
  history?: HistoryActions;
  /** Manual compaction with the shell's progress UI; falls back to the runner's. */
  compact?(focus: string | undefined): Promise<void>;
  /** The editor the panel sits in: open a file a card names, insert a code block at the cursor. */
  editor?: EditorActions;
  /** Slash commands the shell adds (`/model`, `/think`); true when the text was one. */
  slashCommand?(text: string): Promise<boolean>;
  /** A notice's one-click switch to another model (a deprecated model's successor). */
  switchModel?(model: string): Promise<void>;
  /** Opens a pending Write/Edit in the diff editor. */
  reviewEdit?(requestId: string): Promise<void>;
  /** The workspace's files, for `@` and for the attachments a message carries. */
  attachments?: AttachmentSource;
  /** The Context view's report, built when the open view asks. */
  contextReport?(): Promise<ContextReport>;
  /** Answers the webview (a `context/report`). */
  reply?(message: HostToWebviewMessage): void;
  /** Each session's draft and scroll position, kept for after a reload. */
  sessionUi?: SessionUiKeeper;
  /** The window's MCP servers: the panel approves, denies or restarts one by name. */
  mcp?: McpActions;
}

export interface McpActions {
  approve(name: string): Promise<void>;
  deny(name: string): Promise<void>;
  restart(name: string): Promise<void>;
}

export interface SessionUiKeeper {
  handlers: Pick<ChatHandlers, 'draft/save' | 'scroll/save'>;
  /** A message left the composer: the open session's draft is cleared. */
  sent(): void;
}

export interface EditorActions {
  openFile(path: string, line: number | undefined): Promise<void>;
  insertText(text: string): Promise<void>;
}

export interface HistoryActions {
  list(): Promise<HistoryItem[]>;
  resume(id: string): Promise<void>;
  rename(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  exportMarkdown(id: string): Promise<void>;
}

/** How many sessions the empty state offers to resume. */
const RECENT_SESSIONS = 5;

/** Turns what the user does in the panel into state changes and agent calls. */
export function createChatHandlers(deps: ChatControllerDeps): ChatHandlers {
  const { store, runner } = deps;
  const busy = () => store.getState().status !== 'idle';
  // Only while the state says the stopped turn can be picked up: an old button or a replayed
  // message must not send another "continue" into a finished conversation.
  const mayContinue = () => !busy() && store.getState().canContinue;
  return {
    'chat/send': async ({ text }) => {
      if (busy()) {
        addNotice(store, 'warning', 'Threadline is still answering. Press Stop first, or wait for the answer to finish.');
        return;
      }
      deps.sessionUi?.sent();
      // `/compact [focus]` typed in the chat does what the command does.
      const slash = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
      if (slash && runner?.compactNow) {
        const focus = slash[1]?.trim() || undefined;
        await (deps.compact ? deps.compact(focus) : runner.compactNow(focus));
        return;
      }
      if (await deps.slashCommand?.(text)) return;
      const attached = store.getState().attachments;
      if (attached.length) store.setState((s) => ({ ...s, attachments: [], fileChoices: null }));
      if (attached.length && deps.attachments) text = await withAttachments(text, attached, deps.attachments);
      if (runner) {
        // The agent keeps the message in its history even without a key, so Retry works
        // once the key is set.
        await runner.submit(text);
        return;
      }
      appendMessage(store, { kind: 'user', id: newId('user'), text, createdAt: Date.now() });
      if (!(await deps.hasApiKey())) {
        addNotice(store, 'warning', 'Set an Anthropic API key to get answers. Your message is kept; press Retry after setting it.', {
          label: 'Set API Key',
          command: 'setApiKey',
        });
      }
    },
    'chat/stop': () => runner?.stop(),
    'chat/retry': async () => {
      if (!busy()) await runner?.retry();
    },
    'chat/continue': async () => {
      if (mayContinue()) await runner?.continue();
    },
    'permission/respond': ({ requestId, decision }) => runner?.respondToPermission(requestId, decision),
    'history/show': async () => {
      const items = (await deps.history?.list()) ?? [];
      store.setState((s) => ({ ...s, history: items }));
    },
    'history/recent': async () => {
      const items = (await deps.history?.list()) ?? [];
      store.setState((s) => ({ ...s, recent: items.filter((h) => !h.current && h.messageCount > 0).slice(0, RECENT_SESSIONS) }));
    },
    'history/hide': () => store.setState((s) => (s.history === null ? s : { ...s, history: null })),
    'history/resume': async ({ id }) => {
      if (busy()) return;
      store.setState((s) => ({ ...s, history: null }));
      await deps.history?.resume(id);
    },
    'history/rename': async ({ id }) => {
      await deps.history?.rename(id);
    },
    'history/delete': async ({ id }) => {
      await deps.history?.remove(id);
    },
    'history/export': async ({ id }) => {
      await deps.history?.exportMarkdown(id);
    },
    'chat/rewind': ({ id }) => {
      if (busy()) return;
      if (runner?.rewindTo?.(id)) addNotice(store, 'info', 'Rewound the conversation to before that message. Files on disk were not changed.');
      else addNotice(store, 'info', 'Rewind is not available for that message.');
    },
    'chat/fork': async ({ id }) => {
      if (busy()) return;
      if (!(await runner?.forkFrom?.(id))) addNotice(store, 'info', 'Fork is not available for that message.');
    },
    'compaction/openArchive': async ({ id }) => {
      const m = store.getState().messages.find((x) => x.id === id);
      if (m?.kind === 'compaction' && m.archive) await deps.openArchive?.(m.archive, { title: store.getState().sessionTitle, archivedAt: m.createdAt });
    },
    'compaction/undo': ({ id }) => {
      if (!runner?.undoCompaction?.(id)) addNotice(store, 'info', 'That compaction can no longer be undone (the conversation has moved on since).');
    },
    'command/run': ({ command }) => {
      if (command === 'retry') {
        if (!busy()) void runner?.retry();
        return;
      }
      if (command === 'continue') {
        if (mayContinue()) void runner?.continue();
        return;
      }
      deps.runCommand(command);
    },
    'model/switch': async ({ model }) => {
      if (!busy()) await deps.switchModel?.(model);
    },
    'editor/openFile': async ({ path, line }) => {
      await deps.editor?.openFile(path, line);
    },
    'editor/insertText': async ({ text }) => {
      await deps.editor?.insertText(text);
    },
    ...attachmentHandlers(store, deps.attachments, (m) => addNotice(store, 'warning', `Not attached: ${m}.`)),
    'edit/review': async ({ requestId }) => {
      await deps.reviewEdit?.(requestId);
    },
    'context/request': async () => {
      if (!deps.contextReport || !deps.reply) return;
      deps.reply({ type: 'context/report', payload: { report: await deps.contextReport() } });
    },
    'draft/save': async (p) => {
      await deps.sessionUi?.handlers['draft/save'](p);
    },
    'scroll/save': async (p) => {
      await deps.sessionUi?.handlers['scroll/save'](p);
    },
    'mcp/approve': async ({ name }) => deps.mcp?.approve(name),
    'mcp/deny': async ({ name }) => deps.mcp?.deny(name),
    'mcp/restart': async ({ name }) => deps.mcp?.restart(name),
  };
}
