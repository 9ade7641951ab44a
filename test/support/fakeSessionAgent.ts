import type { MessageParam } from '../../src/api/types';
import { Conversation } from '../../src/conversation/conversation';
import type { SessionAgent, SessionContext } from '../../src/sessions/sessionAgent';
import type { SessionDriverDeps } from '../../src/sessions/sessionDriver';
import { SessionStore } from '../../src/sessions/sessionStore';
import type { Store } from '../../src/shared/store';
import type { AppState } from '../../src/state/appState';
import { RuntimeState } from '../../src/state/runtimeState';
import { silentLogger } from '../../src/ports/logger';
import { testHost } from './host';

/**
 * An agent that only holds a history: what the session driver sees of one, for tests of the
 * driver itself (the real agent's part is tested with the stand-in).
 */
export class FakeSessionAgent implements SessionAgent<string> {
  readonly conversation = new Conversation();
  busy = false;
  disposed = false;
  readonly restored: Array<{ history: MessageParam[]; opts: unknown }> = [];

  constructor(readonly session: SessionContext) {}

  model() {
    return { id: 'fake-model' };
  }

  setHistory(history: MessageParam[], opts: { lastAssistantAt?: number } = {}): void {
    this.restored.push({ history, opts });
    this.conversation.set(history, 'load');
  }

  async submit(text: string): Promise<string> {
    this.conversation.set([...this.conversation.history, { role: 'user', content: [{ type: 'text', text }] }], 'user');
    return 'answered';
  }

  async retry(): Promise<undefined> {
    return undefined;
  }

  async continue(): Promise<undefined> {
    return undefined;
  }

  stop(): void {}
  respondToPermission(): void {}
  async compactNow(): Promise<boolean> {
    return false;
  }
  undoCompaction(): boolean {
    return false;
  }
  async previewPartialCompaction(): Promise<never> {
    throw new Error('no compaction here');
  }
  applyPartialCompaction(): boolean {
    return false;
  }
  cancelPartialCompaction(): void {}
  rewindTo(): boolean {
    return false;
  }
  forkPoint() {
    return undefined;
  }
  async drain(): Promise<void> {}

  dispose(): void {
    this.disposed = true;
    this.conversation.dispose();
  }
}

/** A driver's dependencies over a real sessions folder, with fake agents (kept in `agents`). */
export function fakeDriverDeps(store: Store<AppState>, dir: string) {
  const agents: FakeSessionAgent[] = [];
  const host = testHost();
  const deps: SessionDriverDeps<FakeSessionAgent> = {
    store,
    runtime: new RuntimeState('/work/repo', store.getState().sessionId),
    log: silentLogger,
    cwd: '/work/repo',
    sessions: new SessionStore(dir),
    host,
    context: { clear: () => undefined, prefetch: () => undefined },
    prepareOpen: async () => undefined,
    createAgent: (session) => {
      const agent = new FakeSessionAgent(session);
      agents.push(agent);
      return agent;
    },
  };
  return { deps, agents, host };
}
