import type { ChatControllerDeps, ChatRunner, Workbench } from '../../src/chat/chatController';
import { silentLogger } from '../../src/ports/logger';
import type { Store } from '../../src/shared/store';
import type { AppState } from '../../src/state/appState';

/** A session that answers nothing; a test overrides what it looks at. */
export function stubSession(over: Partial<ChatRunner> = {}): ChatRunner {
  return {
    submit: async () => undefined,
    stop: () => undefined,
    retry: async () => undefined,
    continue: async () => undefined,
    respondToPermission: () => undefined,
    compactNow: async () => false,
    undoCompaction: () => false,
    rewindTo: () => false,
    forkFrom: async () => false,
    ...over,
  };
}

/** An editor that does nothing and has no files. */
export function stubWorkbench(over: Partial<Workbench> = {}): Workbench {
  return {
    runCommand: () => undefined,
    openFile: async () => undefined,
    insertText: async () => undefined,
    reviewEdit: async () => undefined,
    openArchive: async () => undefined,
    compact: async () => undefined,
    attachments: { listFiles: async () => [], readFile: async (path) => ({ ok: false, reason: `${path} is not in this test` }) },
    ...over,
  };
}

/** Everything the chat controller needs, each part a no-op unless the test gives its own. */
export function chatDeps(store: Store<AppState>, over: Partial<Omit<ChatControllerDeps, 'store'>> = {}): ChatControllerDeps {
  return {
    store,
    log: silentLogger,
    session: stubSession(),
    workbench: stubWorkbench(),
    history: { list: async () => [], resume: async () => undefined, rename: async () => undefined, remove: async () => undefined, exportMarkdown: async () => undefined },
    models: { slashCommand: async () => false, switchModel: async () => undefined },
    sessionUi: { handlers: { 'draft/save': async () => undefined, 'scroll/save': async () => undefined }, sent: () => undefined },
    contextReport: () => Promise.reject(new Error('this test has no context report')),
    reply: () => undefined,
    undo: {
      session: { sessionId: 's', checkpoints: undefined, rewindTo: () => false, previewPartialCompaction: () => Promise.reject(new Error('no compaction in this test')), applyPartialCompaction: () => false, cancelPartialCompaction: () => undefined },
      workbench: { openRestoreDiff: async () => undefined, openSessionDiff: async () => undefined },
    },
    ...over,
  };
}
