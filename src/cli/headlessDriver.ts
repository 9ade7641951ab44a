import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/createAgent';
import type { PermissionEngine } from '../permissions/permissionBroker';
import type { LoopEvents } from '../agent/queryLoop';
import type { ModelSource } from '../api/models';
import type { ContextService } from '../context/contextService';
import type { McpServices } from '../mcp/services';
import type { MemorySetup } from '../memory/memoryWiring';
import type { ClaudeEnv } from '../sessions/claudeCode';
import type { SessionStore } from '../sessions/sessionStore';
import type { ToolRegistry } from '../tools/registry';
import { gitPreImages } from '../checkpoints/git';
import type { Host } from '../ports/host';
import { silentLogger } from '../ports/logger';
import { SessionDriver } from '../sessions/sessionDriver';
import type { FirstSession } from '../sessions/sessionOpening';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';
import type { RuntimeState } from '../state/runtimeState';

export interface PromptDeps {
  tools: ToolRegistry;
  /** Headless: what would ask is denied. The CLI passes --allowed-tools rules in. */
  permissions: PermissionEngine;
  context: ContextService;
  /** Where this folder's sessions live. */
  sessions: SessionStore;
  /** Where Claude Code's sessions are looked for by `--resume ID` (HOME, CLAUDE_CONFIG_DIR). */
  claudeEnv?: ClaudeEnv;
  memory?: MemorySetup;
  /** Resolves --model (aliases, ids the API knows); without it, the built-in table. */
  models?: ModelSource;
  /** The run's MCP servers (started, not waited for); their tools join as each is ready. */
  mcp?: McpServices;
  /** An answer began arriving, so its request is out (the MCP servers spawn after the first). */
  onAnswerStart?(): void;
}

/**
 * The session driver of a headless run, built as the panel builds its own: the same agent and
 * tools, each message saved as it completes, code checkpoints beside the session (git's copies
 * read only in a trusted folder). `-p` runs a prompt through it; `rewind` and `compact` open a
 * saved session with it.
 */
export function headlessDriver(o: { cwd: string; host: Host; deps: PromptDeps; store: Store<AppState>; runtime: RuntimeState; first: FirstSession; loopEvents?: LoopEvents }): SessionDriver<Agent> {
  const { cwd, host, deps, store, runtime } = o;
  return new SessionDriver<Agent>(
    {
      store,
      runtime,
      log: silentLogger,
      cwd,
      sessions: deps.sessions,
      host,
      context: deps.context,
      // Nothing else of a session is kept headless (no draft, no scroll position).
      prepareOpen: async () => undefined,
      checkpoints: { workspace: cwd, git: () => (host.isTrusted() ? gitPreImages : undefined) },
      createAgent: (session) =>
        createAgent({
          store,
          runtime,
          log: silentLogger,
          cwd,
          host,
          tools: deps.tools,
          permissions: {
            decide: (call) => deps.permissions.decide(call),
            ready: () => deps.permissions.ready?.() ?? Promise.resolve(),
            grantForSession: (call) => deps.permissions.grantForSession(call),
            ...(deps.permissions.grantServer ? { grantServer: (call) => deps.permissions.grantServer!(call) } : {}),
            ...(deps.permissions.boundedCheck ? { boundedCheck: (roots, own) => deps.permissions.boundedCheck!(roots, own) } : {}),
          },
          context: deps.context,
          session,
          ...(deps.memory ? { memory: { ...deps.memory, sessionNotesPath: session.notesPath } } : {}),
          ...(deps.models ? { models: deps.models } : {}),
          ...(o.loopEvents ? { loopEvents: o.loopEvents } : {}),
        }),
    },
    o.first,
  );
}
