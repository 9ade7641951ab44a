import { newId } from '../base/ids';
import type { Store } from '../shared/store';
import type { PermissionDecision } from '../shared/viewState';
import type { AppState } from '../state/appState';
import type { PermissionOutcome, Tool } from '../tools/types';

export type PermissionVerdict = { behavior: 'allow' | 'ask' | 'deny'; reason: string };

/** Rules, defaults and grants: what a host gives the agent to decide about one call. */
export interface PermissionEngine {
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict;
  /** Whether a rule (or a fixed refusal) denies the call, as opposed to asking: what a headless run's decide() cannot tell apart. */
  deniedOutright?(call: { tool: Tool; input: unknown }): boolean;
  /** Whether an ask rule covers the call (a Read ask rule on a file): indirect reads of the file hold to it too. */
  askedByRule?(call: { tool: Tool; input: unknown }): boolean;
  /** Resolves when decide() can judge every call (the shell parser has loaded); awaited before each decision. */
  ready?(): Promise<void>;
  /** Remembers "Allow for this session" for calls like this one. */
  grantForSession(call: { tool: Tool; input: unknown }): void;
  /** What that grant would cover, for the prompt's button (a label) and its tooltip (a sentence). */
  sessionGrant?(call: { tool: Tool; input: unknown }): { label: string; scope: string };
  /** "Allow this server": every tool of the call's MCP server, remembered for this folder. */
  grantServer?(call: { tool: Tool; input: unknown }): void;
  /** Binds a background agent's own check by the same rules (see Permissions.boundedCheck). */
  boundedCheck?(roots: readonly string[], own: (tool: Tool, input: unknown) => PermissionOutcome): (tool: Tool, input: unknown) => PermissionOutcome;
}

type Call = { tool: Tool; input: unknown; id: string };

/**
 * Turns the engine's verdict into an answer for the loop: allow and deny at once, ask through the
 * store (the panel shows the request; whoever answers calls `respond`). Stop denies every open
 * request, so nothing waits on a prompt nobody will answer.
 */
export class PermissionBroker {
  private readonly pending = new Map<string, { call: Call; resolve: (d: PermissionDecision) => void }>();

  constructor(
    private readonly engine: PermissionEngine,
    private readonly store: Store<AppState>,
  ) {}

  async check(call: Call, signal: AbortSignal): Promise<PermissionOutcome> {
    await this.engine.ready?.();
    const verdict = this.engine.decide(call);
    if (verdict.behavior === 'allow') return { allowed: true };
    if (verdict.behavior === 'deny') return { allowed: false, reason: verdict.reason };
    if (signal.aborted) return { allowed: false, reason: 'interrupted' };
    const requestId = newId('perm');
    const session = safeGrant(this.engine, call);
    const decision = await new Promise<PermissionDecision>((resolve) => {
      this.pending.set(requestId, { call, resolve });
      this.store.setState((s) => ({
        ...s,
        status: 'awaiting-permission',
        permission: {
          requestId,
          toolName: call.tool.name,
          summary: safeSummary(call.tool, call.input),
          detail: `${verdict.reason}\n\n${safeJson(call.input)}`,
          input: safeJson(call.input),
          toolUseId: call.id,
          ...(session ? { session } : {}),
          // An MCP call shows its server and tool, and offers "Allow this server".
          ...(call.tool.traits.mcp ? { mcp: { server: call.tool.traits.mcp.server, tool: call.tool.traits.mcp.tool } } : {}),
        },
      }));
    });
    if (decision === 'deny') return { allowed: false, reason: 'The user denied this tool call.' };
    return { allowed: true };
  }

  respond(requestId: string, decision: PermissionDecision): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    if (decision === 'allow-session') this.engine.grantForSession(p.call);
    if (decision === 'allow-server') this.engine.grantServer?.(p.call);
    this.store.setState((s) => ({ ...s, permission: null, status: 'running-tools' }));
    p.resolve(decision);
  }

  denyAll(): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve('deny');
    }
  }
}

export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return String(v);
  }
}

function safeGrant(engine: PermissionEngine, call: Call): { label: string; scope: string } | undefined {
  try {
    return engine.sessionGrant?.(call);
  } catch {
    return undefined;
  }
}

export function safeSummary(tool: Tool, input: unknown): string {
  try {
    return tool.summarize(input);
  } catch {
    return tool.name;
  }
}
