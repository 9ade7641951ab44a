import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import { addNotice } from '../state/actions';
import type { Store } from '../shared/store';
import type { ChatHandlers } from '../state/viewSync';
import type { ContextReport } from '../shared/contextView';
import type { HostToWebviewMessage } from '../shared/protocol';
import type { ActionCommand, HistoryItem, PermissionDecision } from '../shared/viewState';
import { attachmentHandlers, withAttachments, type AttachmentSource } from './attachments';
import { undoHandlers, type UndoDeps } from './undoController';

/** What the chat drives: the open session (the session driver provides it). */
export interface ChatRunner {
  /** Runs one user turn to completion; failures are reported into the store, not thrown. */
  submit(text: string): Promise<unknown>;
  stop(): void;
  retry(): Promise<unknown>;
  continue(): Promise<unknown>;
  respondToPermission(requestId: string, decision: PermissionDecision): void;
  compactNow(focus?: string): Promise<boolean>;
  undoCompaction(id: string): boolean;
  rewindTo(id: string): boolean;
  forkFrom(id: string): Promise<boolean>;
}

/** What the panel asks of the editor around it. */
export interface Workbench extends EditorActions {
  /** A notice's or an empty state's button: Set API Key, Compact, Open Settings… */
  runCommand(command: ActionCommand): void;
  /** Opens a pending Write/Edit in the diff editor. */
  reviewEdit(requestId: string): Promise<void>;
  /** Opens an archived pre-compaction transcript, read-only. */
  openArchive(path: string, session: { title: string; archivedAt: number }): Promise<void>;
  /** Manual compaction with the editor's progress UI (`/compact [focus]`). */
  compact(focus: string | undefined): Promise<void>;
  /** The workspace's files, for `@` and for the attachments a message carries. */
  attachments: AttachmentSource;
}

/** The composer's model commands and a notice's one-click switch to another model. */
export interface ModelActions {
  /** `/model`, `/think`; true when the text was one. */
  slashCommand(text: string): Promise<boolean>;
  /** Switches to another model (a deprecated model's successor). */
  switchModel(model: string): Promise<void>;
}

export interface ChatControllerDeps {
  store: Store<AppState>;
  log: Logger;
  /** The open session. */
  session: ChatRunner;
  workbench: Workbench;
  /** The session history shown in the panel. */
  history: HistoryActions;
  models: ModelActions;
  /** Each session's draft and scroll position, kept for after a reload. */
  sessionUi: SessionUiKeeper;
  /** The Context view's report, built when the open view asks. */
  contextReport(): Promise<ContextReport>;
  /** Answers the webview (a `context/report`). */
  reply(message: HostToWebviewMessage): void;
  /** Restore code, Summarize from here / up to here, the session diff (see undoController.ts). */
  undo: Omit<UndoDeps, 'store'>;
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
  const { store, session, workbench } = deps;
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
      deps.sessionUi.sent();
      // A restore or summary preview belongs to the conversation as it was: a new message ends it.
      if (store.getState().restore || store.getState().summarize) store.setState((s) => ({ ...s, restore: null, summarize: null }));
      // `/compact [focus]` typed in the chat does what the command does.
      const slash = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
      if (slash) {
        await workbench.compact(slash[1]?.trim() || undefined);
        return;
      }
      if (await deps.models.slashCommand(text)) return;
      const attached = store.getState().attachments;
      if (attached.length) store.setState((s) => ({ ...s, attachments: [], fileChoices: null }));
      if (attached.length) text = await withAttachments(text, attached, workbench.attachments);
      // The session keeps the message in its history even without a key, so Retry works once
      // the key is set.
      await session.submit(text);
    },
    'chat/stop': () => session.stop(),
    'chat/retry': async () => {
      if (!busy()) await session.retry();
    },
    'chat/continue': async () => {
      if (mayContinue()) await session.continue();
    },
    'permission/respond': ({ requestId, decision }) => session.respondToPermission(requestId, decision),
    'history/show': async () => {
      const items = await deps.history.list();
      store.setState((s) => ({ ...s, history: items }));
    },
    'history/recent': async () => {
      const items = await deps.history.list();
      store.setState((s) => ({ ...s, recent: items.filter((h) => !h.current && h.messageCount > 0).slice(0, RECENT_SESSIONS) }));
    },
    'history/hide': () => store.setState((s) => (s.history === null ? s : { ...s, history: null })),
    'history/resume': async ({ id }) => {
      if (busy()) return;
      store.setState((s) => ({ ...s, history: null }));
      await deps.history.resume(id);
    },
    'history/rename': async ({ id }) => {
      await deps.history.rename(id);
    },
    'history/delete': async ({ id }) => {
      await deps.history.remove(id);
    },
    'history/export': async ({ id }) => {
      await deps.history.exportMarkdown(id);
    },
    'chat/rewind': ({ id }) => {
      if (busy()) return;
      if (session.rewindTo(id)) addNotice(store, 'info', 'Rewound the conversation to before that message. Files on disk were not changed.');
      else addNotice(store, 'info', 'Rewind is not available for that message.');
    },
    'chat/fork': async ({ id }) => {
      if (busy()) return;
      if (!(await session.forkFrom(id))) addNotice(store, 'info', 'Fork is not available for that message.');
    },
    'compaction/openArchive': async ({ id }) => {
      const m = store.getState().messages.find((x) => x.id === id);
      if (m?.kind === 'compaction' && m.archive) await workbench.openArchive(m.archive, { title: store.getState().sessionTitle, archivedAt: m.createdAt });
    },
    'compaction/undo': ({ id }) => {
      if (!session.undoCompaction(id)) addNotice(store, 'info', 'That compaction can no longer be undone (the conversation has moved on since).');
    },
    'command/run': ({ command }) => {
      if (command === 'retry') {
        if (!busy()) void session.retry();
        return;
      }
      if (command === 'continue') {
        if (mayContinue()) void session.continue();
        return;
      }
      workbench.runCommand(command);
    },
    'model/switch': async ({ model }) => {
      if (!busy()) await deps.models.switchModel(model);
    },
    'editor/openFile': async ({ path, line }) => {
      await workbench.openFile(path, line);
    },
    'editor/insertText': async ({ text }) => {
      await workbench.insertText(text);
    },
    ...undoHandlers({ store, ...deps.undo }),
    ...attachmentHandlers(store, workbench.attachments, (m) => addNotice(store, 'warning', `Not attached: ${m}.`)),
    'edit/review': async ({ requestId }) => {
      await workbench.reviewEdit(requestId);
    },
    'context/request': async () => {
      deps.reply({ type: 'context/report', payload: { report: await deps.contextReport() } });
    },
    'draft/save': async (p) => {
      await deps.sessionUi.handlers['draft/save'](p);
    },
    'scroll/save': async (p) => {
      await deps.sessionUi.handlers['scroll/save'](p);
    },
    'mcp/approve': async ({ name }) => deps.mcp?.approve(name),
    'mcp/deny': async ({ name }) => deps.mcp?.deny(name),
    'mcp/restart': async ({ name }) => deps.mcp?.restart(name),
  };
}
