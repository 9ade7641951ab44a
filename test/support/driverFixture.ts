import type { Agent } from '../../src/agent/agent';
import { createAgent } from '../../src/agent/createAgent';
import { gitPreImages } from '../../src/checkpoints/git';
import { Permissions } from '../../src/permissions/permissions';
import { silentLogger } from '../../src/ports/logger';
import { SessionDriver, type SessionDriverDeps } from '../../src/sessions/sessionDriver';
import type { FirstSession } from '../../src/sessions/sessionOpening';
import { SessionStore } from '../../src/sessions/sessionStore';
import { createStore } from '../../src/shared/store';
import { getDefaultAppState, type AppSettings, type AppState } from '../../src/state/appState';
import { RuntimeState } from '../../src/state/runtimeState';
import { createToolRegistry } from '../../src/tools/builtin';
import { testHost } from './host';

export interface TestDriverOptions {
  /** The stand-in the real SDK talks to. */
  url: string;
  cwd: string;
  /** Where the sessions are saved; kept across "restarts" by building the driver again on it. */
  sessionsDir: string;
  first?: FirstSession;
  settings?: Partial<AppSettings>;
  /** What the state holds besides its defaults before the driver is built (say, a key already set). */
  state?: Partial<AppState>;
  /** The allow rules; nothing else is asked or denied, and the folder is trusted. */
  allow?: string[];
  /** Instruction files and the git snapshot: not read unless a test watches when they would be. */
  context?: SessionDriverDeps<Agent>['context'];
  /** Code checkpoints beside each session, git's copies read, no folder watch (each command is compared before and after). */
  checkpoints?: boolean;
}

/**
 * The session driver as a face builds it: the real agent, tools and permission rules over the
 * stand-in, sessions saved to `sessionsDir`. What a face adds around it (a draft, a scroll
 * position, instruction files) is left out.
 */
export function testDriver(o: TestDriverOptions) {
  const { cwd, first = { kind: 'new' } } = o;
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: runtime.sessionId, settings: { model: 'claude-sonnet-4-6', ...o.settings } }), ...o.state });
  const sessions = new SessionStore(o.sessionsDir);
  const host = testHost({ apiKey: 'k', baseUrl: o.url });
  const permissions = () => new Permissions({ cwd, rules: () => ({ allow: o.allow ?? [], ask: [], deny: [] }), trusted: () => true });
  const driver = new SessionDriver<Agent>(
    {
      store,
      runtime,
      log: silentLogger,
      cwd,
      sessions,
      host,
      context: o.context ?? { clear: () => undefined, prefetch: () => undefined },
      prepareOpen: async () => undefined,
      ...(o.checkpoints ? { checkpoints: { workspace: cwd, git: () => gitPreImages, watch: false } } : {}),
      createAgent: (session) => createAgent({ store, runtime, log: silentLogger, cwd, host, tools: createToolRegistry(), permissions: permissions(), session }),
    },
    first,
  );
  return { driver, store, runtime, sessions, host };
}
