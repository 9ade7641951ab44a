import type { Logger } from '../ports/logger';
import type { AppState } from '../state/appState';
import { addNotice } from '../state/actions';
import type { Store } from '../shared/store';
import type { ChatHandlers } from '../state/viewSync';
import type { ContextReport } from '../shared/contextView';
import type { HostToWebviewMessage } from '../shared/protocol';
import type { ActionCommand, Attachment, HistoryItem, PermissionDecision } from '../shared/viewState';
import { slashAction } from '../shared/slashCommands';
import type { SubmitOptions } from '../sessions/sessionAgent';
import { attachmentHandlers, withAttachments, type AttachmentSource } from './attachments';
import { undoHandlers, type UndoDeps } from './undoController';

/** What the chat drives: the open session (the session driver provides it). */
export interface ChatRunner {
  /**
   * Runs one user turn to completion; failures are reported into the store, not thrown.
   * `returned`: the message was refused before it touched the history, for the box to take back.
   */
  submit(text: string, options?: SubmitOptions): Promise<{ returned?: boolean } | undefined>;
  stop(): void;
  retry(): Promise<unknown>;
  continue(): Promise<unknown>;
  respondToPermission(requestId: string, decision: PermissionDecision): void;
  compactNow(focus?: string): Promise<boolean>;
  undoCompaction(id: string): boolean;
  rewindTo(id: string): boolean;
  /** Puts back what the newest rewind dropped, if nothing changed the conversation since. */
  undoRewind(): boolean;
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

/** A message's opening words, to name it in a notice. */
function shortText(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 40 ? `${one.slice(0, 39)}…` : one;
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
  const userMessage = (id: string) => {
    const m = store.getState().messages.find((x) => x.id === id);
    return m?.kind === 'user' ? m : undefined;
  };
  /**
   * A message goes back to the composer of the open session for editing (as Claude Code puts a
   * rewound prompt back in its input): its text into the box, its attachments back as chips.
   */
  const handBack = (m: { text: string; attachments?: readonly Attachment[] }) => {
    if (m.attachments?.length) {
      const back = m.attachments;
      store.setState((s) => ({ ...s, attachments: [...back.filter((a) => !s.attachments.some((b) => b.id === a.id)), ...s.attachments] }));
    }
    deps.reply({ type: 'composer/insert', payload: { sessionId: store.getState().sessionId, text: m.text } });
  };
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
      const action = slashAction(text);
      if (action) {
        workbench.runCommand(action);
        return;
      }
      const attached = store.getState().attachments;
      if (attached.length) store.setState((s) => ({ ...s, attachments: [], fileChoices: null }));
      const modelText = attached.length ? await withAttachments(text, attached, workbench.attachments) : text;
      // The session keeps the message in its history even without a key, so Retry works once
      // the key is set. The panel shows what was typed, with chips for what went with it.
      const r = await session.submit(text, { handsBack: true, ...(modelText !== text ? { modelText } : {}), ...(attached.length ? { attachments: attached } : {}) });
      // Refused before it touched the history (too big): back in the box, chips and all.
      if (r?.returned) handBack({ text, attachments: attached });
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
      const message = userMessage(id);
      if (!message || !session.rewindTo(id)) {
        addNotice(store, 'info', 'Rewind is not available for that message.');
        return;
      }
      handBack(message);
      addNotice(store, 'info', `Rewound to before “${shortText(message.text)}”: it is back in the box to edit and send again. Files on disk were not changed.`, { label: 'Undo', command: 'undoRewind' });
    },
    'chat/fork': async ({ id }) => {
      if (busy()) return;
      const message = userMessage(id);
      if (!message || !(await session.forkFrom(id))) {
        addNotice(store, 'info', 'Fork is not available for that message.');
        return;
      }
      // The fork starts just before this message: the message waits in the new session's box.
      handBack(message);
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
      if (command === 'undoRewind') {
        if (busy()) return;
        if (session.undoRewind()) addNotice(store, 'info', 'Rewind undone: the conversation is as it was before.');
        else addNotice(store, 'info', 'That rewind can no longer be undone (the conversation has moved on since).');
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
    ...undoHandlers({ store, ...deps.undo, handBack }),
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
