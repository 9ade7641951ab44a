import * as vscode from 'vscode';
import { createAgent } from './agent/createAgent';
import { setUnexpectedErrorHandler } from './base/unexpectedError';
import { createChatHandlers } from './chat/chatController';
import { buildContextReport } from './chat/contextReport';
import { SessionManager } from './chat/sessionManager';
import { SessionUiSync } from './chat/sessionUiSync';
import { reopenPreviousSession } from './chat/reopenPrevious';
import { ContextService } from './context/contextService';
import { writeOpenSession } from './sessions/openSession';
import { sessionsDirFor } from './sessions/paths';
import { SessionStore } from './sessions/sessionStore';
import { SessionUiStore } from './sessions/sessionUiStore';
import { getDefaultAppState, type AppState } from './state/appState';
import { RuntimeState } from './state/runtimeState';
import { createStore } from './shared/store';
import { ViewSync } from './state/viewSync';
import { ApiKeyStore } from './vscode/apiKey';
import { ArchiveDocuments } from './vscode/archiveDocuments';
import { registerChatView } from './vscode/chatViewRegistration';
import { createEditorActions } from './vscode/editorActions';
import { registerCommands, runActionCommand } from './vscode/commands';
import { historyActions, showHistoryPanel } from './vscode/historyUi';
import { approveExternalInclude } from './vscode/includeApprovals';
import { createOutputLogger } from './vscode/log';
import { memorySetup } from './vscode/memorySetup';
import { createModelCatalog } from './vscode/modelCatalog';
import { registerModelUi } from './vscode/modelPicker';
import { showMemory } from './vscode/memoryView';
import { resumeFromPicker } from './vscode/resumeCommand';
import { permissionsAndTools, permissionsReport } from './vscode/permissionWiring';
import { registerAddSelection } from './vscode/addSelection';
import { createAttachmentSource } from './vscode/attachmentSource';
import { EditReview } from './vscode/editReview';
import { readMaxTurns, readMemorySettings, readReviewEdits, readSettings } from './vscode/settings';
import { createContextStatusItem } from './vscode/statusBar';
import { createMcpWiring } from './vscode/mcpWiring';
import { watchKeyAndSettings } from './vscode/watchers';

let manager: SessionManager | undefined;
let panelState: SessionUiSync | undefined;

// The composition root: build the core, adapt it to VS Code, register. Nothing else here.
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = createOutputLogger();
  context.subscriptions.push(log, { dispose: setUnexpectedErrorHandler((err) => log.error('unexpected error', err)) });
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: runtime.sessionId, settings: readSettings() }), workspaceTrusted: vscode.workspace.isTrusted });
  const apiKeys = new ApiKeyStore(context.secrets);
  const contextService = new ContextService({ cwd, trusted: () => vscode.workspace.isTrusted, approveExternal: approveExternalInclude(context.globalState) });
  // Sessions are keyed on the folder path in global storage: code-server's workspace id changes with the port.
  const sessions = new SessionStore(sessionsDirFor(context.globalStorageUri.fsPath, cwd));
  const [archives, mcp] = [new ArchiveDocuments(sessions.dir), createMcpWiring({ context, cwd, store, log, sessionsDir: sessions.dir })] as const;
  const memory = await memorySetup({ cwd, globalStorageDir: context.globalStorageUri.fsPath, sessionsDir: sessions.dir, store, log });
  const models = createModelCatalog({ globalStorageDir: context.globalStorageUri.fsPath, apiKeys, store, log });
  const warnBadRule = (message: string) => void vscode.window.showWarningMessage(`Threadline: a permission rule in settings is ignored: ${message}`);
  // The current session's permission engine and the tools it scopes (Show Context lists its rules).
  let wiring: ReturnType<typeof permissionsAndTools> | undefined;
  // Each session's draft and scroll position, beside its transcript (the webview's own state does not survive a browser reload).
  const sessionUi = (panelState = new SessionUiSync({
    store, log, ui: new SessionUiStore(sessions.dir),
    send: (m) => sync.send(m),
    warn: (m) => void vscode.window.showWarningMessage(m),
  }));
  manager = new SessionManager({
    store, runtime, log, cwd, sessions, context: contextService,
    prepareOpen: (id) => sessionUi.prepare(id),
    rememberOpen: (id) => void writeOpenSession(sessions.dir, id).catch((err: unknown) => log.warn(`could not note the open session: ${String(err)}`)),
    // One agent per session: its history and its "allow for this session" grants go together.
    createAgent: ({ onLoopComplete }) =>
      createAgent({
        store, runtime, log, cwd, context: contextService, maxTurns: readMaxTurns, onLoopComplete, models,
        ...(wiring = permissionsAndTools({ cwd, globalStorageDir: context.globalStorageUri.fsPath, warn: warnBadRule, mcp, sessionId: () => runtime.sessionId })),
        apiKey: () => apiKeys.get(),
        baseUrl: () => store.getState().settings.apiBaseUrl,
        archive: (history) => archives.write(runtime.sessionId, history),
        ...(memory ? { memory: memory(runtime.sessionId) } : {}),
      }),
  });
  const sessionManager = manager;
  const compactNow = (focus: string | undefined) =>
    Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Threadline: compacting the conversation…' }, () => sessionManager.runner.compactNow!(focus)));
  const compact = (focus: string | undefined) => compactNow(focus).then(() => undefined);
  const modelUi = registerModelUi(context, { store, catalog: models, agent: () => sessionManager.agent, compact: () => compactNow(undefined) });
  const review = new EditReview({ store, cwd, mode: readReviewEdits, respond: (requestId, decision) => void handlers['permission/respond']({ requestId, decision }) });
  const handlers = createChatHandlers({
    store, log, compact,
    hasApiKey: async () => Boolean(await apiKeys.get()),
    runCommand: runActionCommand,
    runner: sessionManager.runner,
    editor: createEditorActions(),
    reviewEdit: (requestId) => review.open(requestId),
    attachments: createAttachmentSource(),
    openArchive: (path, session) => archives.open(path, session),
    history: historyActions(sessionManager, sessions, store),
    contextReport: () => buildContextReport(store.getState(), sessionManager.agent.previewContext(), wiring?.permissions.describeRules().rules), reply: (m) => sync.send(m),
    sessionUi, mcp: mcp.actions,
    ...modelUi,
  });
  const sync = new ViewSync(store, handlers, log);
  context.subscriptions.push(apiKeys, archives, sync, sessionManager, review, registerAddSelection(store));
  context.subscriptions.push(sessionUi, sync.sendBeforeSnapshot(() => sessionUi.leadForSnapshot()));
  context.subscriptions.push(...registerChatView(context.extensionUri, sync, store, handlers), createContextStatusItem(store));
  context.subscriptions.push(...watchKeyAndSettings({ store, apiKeys, contextService, agent: () => sessionManager.agent }));
  // The meter follows the window of the model the Models API describes; a key set later fetches the list.
  context.subscriptions.push(models, models.onDidChange(() => sessionManager.agent.publishTokens()), apiKeys.onDidChange(() => void models.refresh()));
  void models.refresh();
  registerCommands(context, {
    store, apiKeys, compact,
    previewContext: () => sessionManager.agent.previewContext(),
    permissionsReport: () => (wiring ? permissionsReport(wiring.permissions) : ''),
    showContextView: async () => sync.send({ type: 'context/open', payload: {} }),
    compactPreview: () => sessionManager.agent.compactPreview(),
    openMemory: () => showMemory(sessionManager.agent.memdir, readMemorySettings().enabled),
    newSession: () => sessionManager.newSession(),
    resumeSession: () => resumeFromPicker(sessionManager, sessions, cwd),
    showHistory: () => showHistoryPanel(sessionManager, store),
  });
  // After activation returns, not before: activation must not wait on reading a transcript.
  void reopenPreviousSession({ sessionsDir: sessions.dir, sessionUi, store, manager: sessionManager, log });
}

export async function deactivate(): Promise<void> {
  // Everything else is owned by context.subscriptions; memory work and the session index reach disk.
  await Promise.all([manager?.flush(), panelState?.flush()]);
}
