import { createAgent, type AgentSetup } from '../../src/agent/createAgent';
import { Permissions, type PermissionRules } from '../../src/permissions/permissions';
import { createToolRegistry } from '../../src/tools/builtin';
import { silentLogger } from '../../src/ports/logger';
import { testHost } from './host';
import { getDefaultAppState, type AppSettings, type AppState } from '../../src/state/appState';
import { RuntimeState } from '../../src/state/runtimeState';
import { createStore } from '../../src/shared/store';

export interface StandinAgentOptions {
  /** The stand-in's base URL. */
  url: string;
  cwd: string;
  settings?: Partial<AppSettings>;
  rules?: Partial<PermissionRules>;
  headless?: boolean;
  maxTurns?: number;
  /** Anything else createAgent takes (context, memory, loopEvents…). */
  extra?: Partial<AgentSetup>;
}

/** The real agent with the real tools and permissions, talking to a Messages API stand-in. */
export function createStandinAgent(o: StandinAgentOptions) {
  const runtime = new RuntimeState(o.cwd);
  const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings: { model: 'claude-sonnet-4-6', ...o.settings } }));
  const agent = createAgent({
    store,
    runtime,
    log: silentLogger,
    cwd: o.cwd,
    tools: createToolRegistry(),
    permissions: new Permissions({ cwd: o.cwd, rules: () => ({ allow: [], ask: [], deny: [], ...o.rules }), trusted: () => true, headless: o.headless ?? false }),
    host: testHost({ apiKey: 'k', baseUrl: o.url, maxTurns: o.maxTurns ?? 5 }),
    ...o.extra,
  });
  return { agent, store, runtime };
}
