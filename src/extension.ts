import * as vscode from 'vscode';
import { createAgent } from './agent/createAgent';
import { Permissions } from './agent/permissions';
import { createToolRegistry } from './agent/tools';
import { createChatHandlers, type HistoryActions } from './chat/chatController';
import { ContextService } from './context/contextService';
import { addNotice } from './state/actions';
import { getDefaultAppState, type AppState } from './state/appState';
import { RuntimeState } from './state/runtimeState';
import { createStore } from './shared/store';
import { ViewSync } from './state/viewSync';
import { SessionRecorder } from './sessions/recorder';
import { restoreSession, skippedNotice } from './sessions/resume';
import { sessionsDirFor } from './sessions/paths';
import { archiveToMarkdown, SessionStore, sessionToMarkdown, titleFrom } from './sessions/sessionStore';
import { listClaudeSessions, loadClaudeSession } from './sessions/claudeCode';
import { pickSession } from './vscode/sessionPicker';
import { ApiKeyStore } from './vscode/apiKey';
import { ChatViewProvider, CHAT_VIEW_ID } from './vscode/chatViewProvider';
import { registerCommands, runActionCommand } from './vscode/commands';
import { readMaxTurns, readMemorySettings, readPermissionSettings, readSettings } from './vscode/settings';
import { showMemory } from './vscode/memoryView';
import { canonicalRepoRoot } from './context/git';
import { resolveMemoryDir } from './memory/paths';
import { join } from 'node:path';
import { createContextStatusItem } from './vscode/statusBar';
import { createOutputLogger } from './vscode/log';

const ARCHIVE_SCHEME = 'threadline-archive';

// The composition root: build the core, adapt it to VS Code, register. Nothing else here.
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = createOutputLogger();
  context.subscriptions.push(log);
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>({
    ...getDefaultAppState({ sessionId: runtime.sessionId, settings: readSettings() }),
    workspaceTrusted: vscode.workspace.isTrusted,
  });

  const apiKeys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(apiKeys);
  const refreshKey = async () => {
    const present = Boolean(await apiKeys.get());
    store.setState((s) => (s.apiKeySet === present ? s : { ...s, apiKeySet: present }));
  };
  void refreshKey();
  context.subscriptions.push(apiKeys.onDidChange(() => void refreshKey()));

  const approvedIncludes = new Set(context.globalState.get<string[]>('threadline.approvedIncludes') ?? []);
  const contextService = new ContextService({
    cwd,
    trusted: () => vscode.workspace.isTrusted,
    // An instruction file pulling in a file from outside the project is a way to smuggle
    // instructions in: ask once per file, remember the answer.
    approveExternal: async (path, from) => {
      if (approvedIncludes.has(path)) return true;
      const allow = 'Allow';
      const pick = await vscode.window.showWarningMessage(
        `Threadline: ${from} includes ${path}, which is outside this project. Use it as instructions?`,
        { modal: true },
        allow,
      );
      if (pick !== allow) return false;
      approvedIncludes.add(path);
      await context.globalState.update('threadline.approvedIncludes', [...approvedIncludes]);
      return true;
    },
  });
  // Auto memory: one folder per repository (all its worktrees share it), or the setting's.
  const memorySettings = readMemorySettings();
  const canonical = (await canonicalRepoRoot(cwd, 1500)) ?? cwd;
  const memoryDir = resolveMemoryDir({ setting: memorySettings.directory, globalStorageDir: context.globalStorageUri.fsPath, canonicalRoot: canonical });
  if (!memoryDir.ok) void vscode.window.showWarningMessage(`Threadline: auto memory is off: ${memoryDir.reason}`);
  // Sessions: one JSONL transcript each, in the extension's storage under this folder's key,
  // written after every answer.
  const sessions = new SessionStore(sessionsDirFor(context.globalStorageUri.fsPath, cwd));
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(ARCHIVE_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const name = uri.path.replace(/^\//, '').replace(/\.md$/, '');
        if (!/^[A-Za-z0-9_-]+\.jsonl$/.test(name)) return 'Not an archive.';
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(join(sessions.dir, 'archive', name)));
        return archiveToMarkdown(Buffer.from(bytes).toString('utf8'));
      },
    }),
  );
  const warnBadRule = (message: string) => void vscode.window.showWarningMessage(`Threadline: a permission rule in settings is ignored: ${message}`);
  // One agent per session: its history and its "allow for this session" grants go together.
  const makeAgent = () =>
    createAgent({
      store,
      runtime,
      log,
      cwd,
      tools: createToolRegistry(),
      permissions: new Permissions({ cwd, rules: readPermissionSettings, trusted: () => vscode.workspace.isTrusted }, warnBadRule),
      apiKey: () => apiKeys.get(),
      baseUrl: () => store.getState().settings.apiBaseUrl,
      maxTurns: readMaxTurns,
      context: contextService,
      onLoopComplete: () => persist(),
      ...(memoryDir.ok
        ? {
            memory: {
              dir: memoryDir.dir,
              enabled: () => readMemorySettings().enabled,
              ...(readMemorySettings().sessionMemory ? { sessionNotesPath: join(sessions.dir, 'notes', `${runtime.sessionId}.md`) } : {}),
              onSaved: (names: string[]) => addNotice(store, 'info', `Saved to memory: ${names.join(', ')}.`, { label: 'Open Memory', command: 'openMemory' }),
              onError: (err: unknown) => log.warn(`memory: ${err instanceof Error ? err.message : String(err)}`),
            },
          }
        : {}),
      archive: async (history) => {
        // The full transcript, before compaction replaces it: one JSON message per line.
        // Next to the session transcripts, so an archive is found with its session.
        const dir = vscode.Uri.joinPath(vscode.Uri.file(sessions.dir), 'archive');
        await vscode.workspace.fs.createDirectory(dir);
        const file = vscode.Uri.joinPath(dir, `${runtime.sessionId}-${Date.now()}.jsonl`);
        await vscode.workspace.fs.writeFile(file, Buffer.from(history.map((m) => JSON.stringify(m)).join('\n') + '\n'));
        return file.fsPath;
      },
    });
  let agent = makeAgent();
  contextService.prefetch();
  // Every way into another session (new, resume, fork, import) comes through here, so each gets
  // a fresh agent (history, session grants) and re-read instruction files and git snapshot.
  const switchSession = (id?: string) => {
    agent.stop();
    contextService.clear();
    runtime.startSession(id);
    agent = makeAgent();
    contextService.prefetch();
  };

  const newRecorder = () => new SessionRecorder(sessions, { id: runtime.sessionId, cwd, model: store.getState().settings.model });
  let recorder = newRecorder();
  flushOnExit = async () => {
    // Memory extraction and session notes finish before the extension goes away.
    await Promise.race([agent.drain(), new Promise((r) => setTimeout(r, 5000))]);
    await recorder.flush();
  };
  const persist = (reason = 'update') => {
    const s = store.getState();
    const title = s.sessionTitle === 'New session' ? titleFrom(s.messages) : undefined;
    if (title) store.setState((st) => ({ ...st, sessionTitle: title }));
    recorder.sync(agent.messages, store.getState().messages, store.getState().tokens.used, reason).catch((err: unknown) => {
      log.error('could not save the session', err);
      addNotice(store, 'warning', `Threadline could not save this session: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
  context.subscriptions.push(
    apiKeys.onDidChange(async () => {
      if (agent.awaitingKey && (await apiKeys.get())) {
        addNotice(store, 'info', 'API key saved. Send your waiting message now?', { label: 'Retry', command: 'retry' });
      }
    }),
  );
  // The panel talks to whichever agent is current; New Session swaps it.
  const runner = {
    submit: (text: string) => agent.submit(text),
    stop: () => agent.stop(),
    retry: () => agent.retry(),
    continue: () => agent.continue(),
    respondToPermission: (id: string, d: Parameters<typeof agent.respondToPermission>[1]) => agent.respondToPermission(id, d),
    compactNow: async (focus?: string) => {
      const ok = await agent.compactNow(focus);
      if (ok) persist('compaction');
      return ok;
    },
    undoCompaction: (id: string) => {
      const ok = agent.undoCompaction(id);
      if (ok) persist('undo');
      return ok;
    },
    rewindTo: (id: string) => {
      const ok = agent.rewindTo(id);
      if (ok) persist('rewind');
      return ok;
    },
    forkFrom: async (id: string) => {
      const point = agent.forkPoint(id);
      if (!point) return false;
      const from = store.getState().sessionTitle;
      switchSession();
      agent.setHistory(point.history);
      recorder = newRecorder();
      store.setState((s) => ({
        ...s,
        sessionId: runtime.sessionId,
        sessionTitle: `Fork of ${from}`.slice(0, 60),
        // The fork's own Rewind starts with its next message.
        messages: point.messages.map((m) => (m.kind === 'user' && m.rewindable ? { ...m, rewindable: false } : m)),
        canContinue: false,
      }));
      addNotice(store, 'info', `Forked into a new session; "${from}" is kept as it was. Files on disk were not changed.`);
      persist('fork');
      return true;
    },
  };
  const compactWithProgress = async (focus: string | undefined) => {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Threadline: compacting the conversation…' },
      () => runner.compactNow(focus),
    );
  };

  const handlers = createChatHandlers({
    store,
    log,
    hasApiKey: async () => Boolean(await apiKeys.get()),
    runCommand: runActionCommand,
    runner,
    compact: compactWithProgress,
    openArchive: async (path) => {
      // Only files of our own archive folder, shown read-only through a content provider.
      const archiveDir = join(sessions.dir, 'archive');
      if (!path.startsWith(`${archiveDir}/`)) return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: ARCHIVE_SCHEME, path: `/${path.slice(archiveDir.length + 1)}.md` }));
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    // Defined further down with the session commands; called only once the panel is up.
    history: {
      list: () => historyActions.list(),
      resume: (id) => historyActions.resume(id),
      rename: (id) => historyActions.rename(id),
      remove: (id) => historyActions.remove(id),
      exportMarkdown: (id) => historyActions.exportMarkdown(id),
    },
  });
  const sync = new ViewSync(store, handlers, log);
  context.subscriptions.push(sync);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, new ChatViewProvider(context.extensionUri, sync)));
  context.subscriptions.push(createContextStatusItem(store));

  const openSession = async (id: string) => {
    let loaded;
    try {
      loaded = await sessions.load(id);
    } catch (err) {
      void vscode.window.showErrorMessage(`Threadline: could not open that session: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    switchSession(loaded.meta.id);
    recorder = restoreSession(loaded, store, agent, sessions);
    const warn = skippedNotice(loaded);
    if (warn) addNotice(store, 'warning', warn);
  };
  const refreshHistory = async () => {
    if (store.getState().history === null) return;
    const items = await historyActions.list();
    store.setState((s) => ({ ...s, history: items }));
  };
  const historyActions: HistoryActions = {
    list: async () => {
      let list = await sessions.list();
      if (!list.length) list = await sessions.rebuildIndex();
      return list.map((e) => ({ id: e.id, title: e.title, updatedAt: e.updatedAt, messageCount: e.messageCount, current: e.id === runtime.sessionId, preview: e.preview ?? '' }));
    },
    resume: (id) => openSession(id),
    rename: async (id) => {
      const current = (await sessions.list()).find((e) => e.id === id);
      const title = await vscode.window.showInputBox({ title: 'Rename session', value: current?.title ?? '', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A title cannot be empty') });
      if (title === undefined) return;
      await sessions.rename(id, title);
      if (id === recorder.id) recorder.adoptTitle(title.trim());
      store.setState((s) => (s.sessionId === id ? { ...s, sessionTitle: title.trim() } : s));
      await refreshHistory();
    },
    remove: async (id) => {
      if (id === runtime.sessionId) {
        void vscode.window.showInformationMessage('Threadline: this is the open session; start a new session before deleting it.');
        return;
      }
      const title = (await sessions.list()).find((e) => e.id === id)?.title ?? id;
      await sessions.delete(id);
      await refreshHistory();
      void vscode.window.showInformationMessage(`Threadline: deleted "${title}".`, 'Undo').then(async (pick) => {
        if (pick !== 'Undo') return;
        await sessions.restore(id);
        await refreshHistory();
      });
    },
    exportMarkdown: async (id) => {
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: sessionToMarkdown(await sessions.load(id)) });
      await vscode.window.showTextDocument(doc, { preview: false });
    },
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('threadline.showHistory', async () => {
      const items = await historyActions.list();
      store.setState((st) => ({ ...st, history: items }));
      await vscode.commands.executeCommand('threadline.chat.focus');
    }),
  );

  registerCommands(context, {
    store,
    apiKeys,
    compact: compactWithProgress,
    previewContext: () => agent.previewContext(),
    compactPreview: () => agent.compactPreview(),
    openMemory: () => showMemory(agent.memdir, readMemorySettings().enabled),
    newSession: () => {
      switchSession();
      const fresh = getDefaultAppState({ sessionId: runtime.sessionId, settings: store.getState().settings });
      store.setState((s) => ({ ...fresh, apiKeySet: s.apiKeySet, workspaceTrusted: s.workspaceTrusted }));
      recorder = newRecorder();
    },
    resumeSession: async () => {
      const picked = await pickSession(
        sessions,
        {
          onRenamed: (id, title) => {
            if (id === recorder.id) recorder.adoptTitle(title);
            store.setState((s) => (s.sessionId === id ? { ...s, sessionTitle: title } : s));
          },
        },
        await listClaudeSessions(cwd).catch(() => []),
      );
      if (!picked) return;
      if (picked.kind === 'claude') {
        let converted;
        try {
          converted = await loadClaudeSession(picked.file);
        } catch (err) {
          void vscode.window.showErrorMessage(`Threadline: could not read that Claude Code session: ${err instanceof Error ? err.message : String(err)}`);
          return;
        }
        switchSession();
        agent.setHistory(converted.history);
        recorder = newRecorder();
        store.setState((s) => ({ ...s, sessionId: runtime.sessionId, sessionTitle: converted.title.slice(0, 60), messages: converted.view, canContinue: false }));
        addNotice(store, 'info', `Opened a Claude Code session as a new Threadline session; the original transcript is unchanged.${converted.skipped ? ` ${converted.skipped} unreadable line(s) were skipped.` : ''}`);
        persist('import');
        return;
      }
      await openSession(picked.id);
      await vscode.commands.executeCommand('threadline.chat.focus');
    },
  });

  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      // Project instruction files were withheld while untrusted; read them now.
      contextService.clear();
      store.setState((s) => ({ ...s, workspaceTrusted: true }));
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('threadline')) {
        const settings = readSettings();
        store.setState((s) => ({ ...s, settings, model: settings.model }));
      }
    }),
  );
}

let flushOnExit: (() => Promise<void>) | undefined;

export async function deactivate(): Promise<void> {
  // Everything else is owned by context.subscriptions; the session index must reach disk.
  await flushOnExit?.();
}
