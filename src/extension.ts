import * as vscode from 'vscode';
import type { Agent } from './agent/agent';
import { createAgent } from './agent/createAgent';
import { guardAgentProcess } from './base/agentProcess';
import { Emitter } from './base/event';
import { setUnexpectedErrorHandler } from './base/unexpectedError';
import { gitPreImages } from './checkpoints/git';
import { createChatHandlers } from './chat/chatController';
import { buildContextReport } from './chat/contextReport';
import { SessionUiSync } from './chat/sessionUiSync';
import { rememberOpenSession, reopenPreviousSession } from './chat/reopenPrevious';
import { ContextService } from './context/contextService';
import { sessionsDirFor } from './sessions/paths';
import { SessionDriver } from './sessions/sessionDriver';
import { SessionStore } from './sessions/sessionStore';
import { SessionUiStore } from './sessions/sessionUiStore';
import type { HostToWebviewMessage } from './shared/protocol';
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
import { createVsCodeHost } from './vscode/host';
import { createOutputLogger } from './vscode/log';
import { memorySetup } from './vscode/memorySetup';
import { createModelCatalog } from './vscode/modelCatalog';
import { registerModelUi } from './vscode/modelPicker';
import { showMemory } from './vscode/memoryView';
import { resumeFromPicker } from './vscode/resumeCommand';
import { SessionPermissions } from './vscode/permissionWiring';
import { registerAddSelection } from './vscode/addSelection';
import { createAttachmentSource } from './vscode/attachmentSource';
import { EditReview } from './vscode/editReview';
import { CheckpointDiffs } from './vscode/checkpointDiffs';
import { readMemorySettings, readReviewEdits, readSettings } from './vscode/settings';
import { createContextStatusItem } from './vscode/statusBar';
import { createMcpWiring } from './vscode/mcpWiring';
import { watchKeyAndSettings } from './vscode/watchers';

let driver: SessionDriver<Agent> | undefined;
let panelState: SessionUiSync | undefined;

// The composition root: build the core, adapt it to VS Code, register. Nothing else here; each
// name is used only below the line that makes it.
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // The extension host runs the agent: its inspector and core files are closed to the commands it runs.
  guardAgentProcess();
  const log = createOutputLogger();
  context.subscriptions.push(log, { dispose: setUnexpectedErrorHandler((err) => log.error('unexpected error', err)) });
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const globalStorageDir = context.globalStorageUri.fsPath;
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: runtime.sessionId, settings: readSettings() }), workspaceTrusted: vscode.workspace.isTrusted });
  const apiKeys = new ApiKeyStore(context.secrets);
  const host = createVsCodeHost({ apiKeys, store, approvals: context.globalState });
  // Sessions are keyed on the folder path in global storage: code-server's workspace id changes with the port.
  const sessions = new SessionStore(sessionsDirFor(globalStorageDir, cwd));
  const archives = new ArchiveDocuments(sessions.dir);
  const mcp = createMcpWiring({ context, cwd, store, log, host, sessionsDir: sessions.dir });
  const memory = await memorySetup({ cwd, globalStorageDir, store, log, host });
  const models = createModelCatalog({ globalStorageDir, apiKeys, store, log });
  const permissions = new SessionPermissions({ cwd, globalStorageDir, host, mcp, sessionId: () => runtime.sessionId });
  // Instruction files and their includes are held to the session's Read deny rules (an `@.env`).
  const contextService = new ContextService({ cwd, host, readDenied: (path) => permissions.readDenied(path) });
  // What goes to the panel besides the state's patches; the view sync made below delivers it.
  const toPanel = new Emitter<HostToWebviewMessage>();
  // Each session's draft and scroll position, beside its transcript (the webview's own state does not survive a browser reload).
  const sessionUi = (panelState = new SessionUiSync({ store, log, ui: new SessionUiStore(sessions.dir), send: (m) => toPanel.fire(m), warn: (m) => host.notify('warning', m) }));
  const sessionDriver = (driver = new SessionDriver<Agent>(
    {
      store, runtime, log, cwd, sessions, host, context: contextService,
      prepareOpen: (id) => sessionUi.prepare(id),
      // git's copies of files a command changed are read only in a trusted folder.
      checkpoints: { workspace: cwd, git: () => (host.isTrusted() ? gitPreImages : undefined) },
      createAgent: (session) =>
        createAgent({ store, runtime, log, cwd, host, context: contextService, models, session, ...permissions.forSession(), ...(memory ? { memory: memory(session) } : {}) }),
    },
    { kind: 'new' },
  ));
  const compactNow = (focus: string | undefined) =>
    Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Threadline: compacting the conversation…' }, () => sessionDriver.compactNow(focus)));
  const compact = (focus: string | undefined) => compactNow(focus).then(() => undefined);
  const modelUi = registerModelUi(context, { store, catalog: models, agent: () => sessionDriver.agent, compact: () => compactNow(undefined), settings: host.settings });
  const checkpointDiffs = new CheckpointDiffs();
  const review = new EditReview({ store, cwd, mode: readReviewEdits, respond: (requestId, decision) => sessionDriver.respondToPermission(requestId, decision) });
  const handlers = createChatHandlers({
    store, log, session: sessionDriver, models: modelUi, sessionUi,
    workbench: {
      ...createEditorActions(), runCommand: runActionCommand, compact, attachments: createAttachmentSource(),
      reviewEdit: (requestId) => review.open(requestId),
      openArchive: (path, session) => archives.open(path, session),
    },
    history: historyActions(sessionDriver, sessions, store),
    contextReport: () => buildContextReport(store.getState(), sessionDriver.agent.previewContext(), permissions.describeRules()?.rules),
    reply: (m) => toPanel.fire(m),
    undo: { session: sessionDriver, workbench: checkpointDiffs },
    mcp: mcp.actions,
  });
  const sync = new ViewSync(store, handlers, log);
  context.subscriptions.push(apiKeys, archives, checkpointDiffs, toPanel, toPanel.event((m) => sync.send(m)), sync, sessionDriver, review, registerAddSelection(store));
  context.subscriptions.push(rememberOpenSession(sessionDriver, sessions.dir, log));
  context.subscriptions.push(sessionUi, sync.sendBeforeSnapshot(() => sessionUi.leadForSnapshot()));
  context.subscriptions.push(...registerChatView(context.extensionUri, sync, store, handlers), createContextStatusItem(store));
  context.subscriptions.push(...watchKeyAndSettings({ store, apiKeys, contextService, agent: () => sessionDriver.agent }));
  // The meter follows the window of the model the Models API describes; a key set later fetches the list.
  context.subscriptions.push(models, models.onDidChange(() => sessionDriver.agent.publishTokens()), apiKeys.onDidChange(() => void models.refresh()));
  void models.refresh();
  registerCommands(context, {
    store, apiKeys, compact,
    previewContext: () => sessionDriver.agent.previewContext(),
    permissionsReport: () => permissions.report(),
    showContextView: async () => toPanel.fire({ type: 'context/open', payload: {} }),
    compactPreview: () => sessionDriver.agent.compactPreview(),
    openMemory: () => showMemory(sessionDriver.agent.memdir, readMemorySettings().enabled),
    newSession: () => sessionDriver.newSession(),
    resumeSession: () => resumeFromPicker(sessionDriver, sessions, cwd),
    showHistory: () => showHistoryPanel(sessionDriver, store),
    showSessionChanges: async () => handlers['session/diff']({}),
  });
  // After activation returns, not before: activation must not wait on reading a transcript.
  void reopenPreviousSession({ sessionsDir: sessions.dir, sessionUi, store, sessions: sessionDriver, log });
}

export async function deactivate(): Promise<void> {
  // Everything else is owned by context.subscriptions; memory work and the session index reach disk.
  await Promise.all([driver?.flush(), panelState?.flush()]);
}
