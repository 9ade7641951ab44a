// The servers of one host session (a VS Code window, a CLI run): which may start (trust,
// approval), starting them without holding anyone up, and ending every one of them when the
// session ends. Sessions of the chat share it; each has its own view of the tools (toolset.ts).
import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { Logger } from '../ports/logger';
import type { McpServerView } from '../shared/mcpView';
import { estimateTokens } from '../conversation/tokens';
import { placeCommand } from './config/command';
import { describeSpec } from './config/describe';
import { expandSpec } from './config/expand';
import type { McpConfigResult, McpInputSpec } from './config/sources';
import { needsApproval, needsTrust, startFolder, type McpConfigProblem, type McpServerConfig } from './config/types';
import type { Connect, McpOAuthHost } from './connection';
import type { NamedRule } from './names';
import { loadConnect } from './sdkLoader';
import { McpServer, type Blocked } from './server';
import { workspaceFingerprint } from './runsFrom';
import type { ApprovalDecision, ApprovalStore } from './trust';
import type { Host } from '../ports/host';

/** Claude Code's default: a server gets 30 s to start. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** A tool call with no answer and no progress for this long fails (Stop ends it sooner). */
const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;

export interface McpManagerOptions {
  /** The workspace folder: a project's servers are its grants, and run there (others start in `home`: startFolder). */
  cwd: string;
  home: string;
  /** What `${VAR}` reads and what stdio servers start from (the agent's secrets are left out). */
  env: NodeJS.ProcessEnv;
  clientVersion: string;
  readConfig(): Promise<McpConfigResult>;
  /** Whether the folder may grant things itself, such as starting the servers it defines (the host's one answer). */
  trust: Pick<Host, 'isTrusted'>;
  approvals: ApprovalStore;
  /** Asks for a VS Code `inputs` value (the extension keeps it in SecretStorage); absent in the CLI. */
  input?(id: string, spec: McpInputSpec | undefined): Promise<string | undefined>;
  /** How to approve a server from this face, for the messages ("threadline mcp approve x"). */
  approveHint(name: string): string;
  /** How to trust the folder from this face. */
  trustHint: string;
  connectTimeoutMs?: number;
  toolTimeoutMs?: number;
  retryDelaysMs?: readonly number[];
  /** Tests give their own; the default loads the SDK's bundle on first use. */
  connect?(): Promise<Connect>;
  /** Signing in to remote servers that ask for OAuth (browser in VS Code; printed URL in the CLI). */
  oauth?: McpOAuthHost;
  log?: Logger;
  /**
   * The allow rules in force here, with where each is written: a workspace server's approval
   * names those that already cover its tools (a rule names a server by its name alone).
   */
  allowRules?(): readonly NamedRule[];
}

export class McpManager implements IDisposable {
  private readonly changed = new Emitter<void>();
  /** A server changed state or tools (debounce in the view if needed). */
  readonly onDidChange: Event<void> = this.changed.event;
  private byName = new Map<string, { server: McpServer; sub: IDisposable }>();
  private problemList: McpConfigProblem[] = [];
  private inputs = new Map<string, McpInputSpec>();
  private loading: Promise<void> | undefined;
  /** Reloads run one at a time: two at once would each start the same new server. */
  private queue: Promise<void> = Promise.resolve();
  private spawnGate: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly opts: McpManagerOptions) {}

  get connectTimeoutMs(): number {
    return this.opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  get toolTimeoutMs(): number {
    return this.opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  }

  /**
   * Reads the config and starts what may start; resolves once the config is read, not when the
   * servers are ready. With `after`, the processes are spawned only once it resolves: a CLI run
   * passes its first request going out, so ten servers starting take no CPU from building it.
   */
  start(opts: { after?: Promise<unknown> } = {}): Promise<void> {
    if (opts.after) this.spawnGate = opts.after;
    return (this.loading ??= this.reload());
  }

  /** Reads the config again: new and changed servers start, removed ones stop, the rest keep running. */
  reload(): Promise<void> {
    const next = this.queue.then(() => this.reloadNow());
    this.queue = next.catch((err: unknown) => this.opts.log?.error('MCP: reading the server config failed', err));
    return next;
  }

  private async reloadNow(): Promise<void> {
    if (this.disposed) return;
    const config = await this.opts.readConfig();
    // The session may have ended while the files were read: then nothing starts.
    if (this.disposed) return;
    this.problemList = config.problems;
    this.inputs = config.inputs;
    const next = new Map(config.servers.map((c) => [c.name, c]));
    for (const [name, { server }] of this.byName) {
      const c = next.get(name);
      if (!c || c.hash !== server.config.hash || c.scope !== server.config.scope || c.invalid !== server.config.invalid) await this.remove(name);
    }
    const starts: Array<() => Promise<void>> = [];
    for (const c of config.servers) {
      const kept = this.byName.get(c.name);
      if (kept) {
        // Trust or an approval may have changed since: a held server may start now, a running one may have to stop.
        const blocked = await this.blockedBy(c);
        if (blocked && kept.server.state !== blocked.state) await kept.server.stop(blocked);
        else if (!blocked && (kept.server.state === 'disabled' || kept.server.state === 'awaiting-approval')) starts.push(() => kept.server.restart());
        continue;
      }
      const blocked = await this.blockedBy(c);
      const server = new McpServer(c, this.serverDeps(), blocked);
      this.byName.set(c.name, { server, sub: server.onDidChange(() => this.changed.fire()) });
      if (!blocked) starts.push(() => server.start());
    }
    this.changed.fire();
    // Not awaited by callers of start(): the first request must not wait for any server.
    void this.spawnGate.then(() => Promise.all(starts.map((s) => s())));
  }

  private serverDeps() {
    const o = this.opts;
    return {
      connect: o.connect ?? loadConnect,
      mayStart: (c: McpServerConfig) => this.blockedBy(c),
      resolve: async (c: McpServerConfig) => {
        const r = await expandSpec(c.spec, {
          env: o.env,
          workspaceFolder: o.cwd,
          home: o.home,
          ...(o.input ? { input: (id: string) => o.input!(id, this.inputs.get(id)) } : {}),
        });
        // What starts is the program the approval named: placeCommand is the description's own lookup.
        if (!r.ok || r.spec.transport !== 'stdio') return r;
        return placeCommand(r.spec, { home: o.home, workspace: o.cwd, startDir: startFolder(c.scope, { workspace: o.cwd, home: o.home }), env: o.env });
      },
      describe: (c: McpServerConfig) => this.describe(c),
      folders: { workspace: o.cwd, home: o.home },
      baseEnv: o.env,
      clientVersion: o.clientVersion,
      connectTimeoutMs: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      ...(o.retryDelaysMs ? { retryDelaysMs: o.retryDelaysMs } : {}),
      ...(o.oauth ? { oauth: o.oauth } : {}),
    };
  }

  /**
   * What a server runs, as its approval and the status view show it: the program its command
   * resolves to, and for a workspace's server the CHECK warnings first.
   */
  describe(c: McpServerConfig): string {
    if (c.invalid) return '';
    const o = this.opts;
    const folders = { workspace: o.cwd, home: o.home };
    return describeSpec(c.spec, { fromWorkspace: needsApproval(c.scope), name: c.name, home: o.home, workspace: o.cwd, startDir: startFolder(c.scope, folders), env: o.env, allowRules: needsApproval(c.scope) ? (o.allowRules?.() ?? []) : [] });
  }

  /**
   * After tool calls that may have changed the workspace: a running project server whose approval
   * no longer holds stops, so code it loads later (on a tool call, `node --watch`) is not the
   * model's edit (pass 93 H3). It asks again before it next starts.
   */
  async workspaceChanged(): Promise<void> {
    for (const s of this.servers()) {
      if (!needsApproval(s.config.scope) || (s.state !== 'running' && s.state !== 'starting')) continue;
      const blocked = await this.blockedBy(s.config);
      if (blocked) await s.stop({ state: blocked.state, detail: `${blocked.detail}; stopped: the workspace it runs from changed since you approved it` });
    }
  }

  /** Before a call to `name`: undefined when it may run; else why not, the server stopped. */
  async recheck(name: string): Promise<string | undefined> {
    const s = this.server(name);
    if (!s || !needsApproval(s.config.scope)) return undefined;
    const blocked = await this.blockedBy(s.config);
    if (!blocked) return undefined;
    await s.stop({ state: blocked.state, detail: `${blocked.detail}; stopped: the workspace it runs from changed since you approved it` });
    return `MCP server "${name}" was stopped before this call: the workspace it runs from changed since it was approved, so it asks again (${blocked.detail}).`;
  }

  /** What an approval covers: the definition, and what its command takes from the workspace (runsFrom.ts). */
  private async approvalHash(c: McpServerConfig): Promise<string> {
    const o = this.opts;
    const files = await workspaceFingerprint(c.spec, startFolder(c.scope, { workspace: o.cwd, home: o.home }), o.cwd).catch(() => 'unread');
    return files ? `${c.hash}+${files}` : c.hash;
  }

  /** Why a server may not start now, or undefined when it may. */
  private async blockedBy(c: McpServerConfig): Promise<Blocked | undefined> {
    if (c.invalid) return { state: 'disabled', detail: `${c.invalid} (in ${c.source})` };
    if (c.spec.disabled) return { state: 'disabled', detail: `disabled in ${c.source}` };
    if (needsTrust(c.scope) && !this.opts.trust.isTrusted()) {
      return { state: 'disabled', detail: `not started: it comes from ${c.source} and this folder is not trusted (${this.opts.trustHint})` };
    }
    if (!needsApproval(c.scope)) return undefined;
    const hash = await this.approvalHash(c);
    const d = await this.opts.approvals.decision(this.opts.cwd, c.name, hash);
    if (d === 'approved') return undefined;
    if (d !== 'denied' && hash.includes('unchecked-')) return { state: 'awaiting-approval', detail: `${c.source} defines it; its workspace is more than an approval can cover (20,000 files, 512 MB, 15 s of reading, but .git and the top node_modules), so it asks at every start (${this.opts.approveHint(c.name)})` };
    if (d === 'denied') return { state: 'disabled', detail: `you denied this server from ${c.source}; reset the answer to be asked again` };
    return { state: 'awaiting-approval', detail: `${c.source} defines it; it starts once you approve it (${this.opts.approveHint(c.name)}); an approval covers its definition and the workspace it runs from, and a change to either asks again` };
  }

  private async remove(name: string): Promise<void> {
    const e = this.byName.get(name);
    if (!e) return;
    this.byName.delete(name);
    e.sub.dispose();
    await e.server.dispose();
  }

  servers(): McpServer[] {
    return [...this.byName.values()].map((e) => e.server);
  }

  server(name: string): McpServer | undefined {
    return this.byName.get(name)?.server;
  }

  problems(): readonly McpConfigProblem[] {
    return this.problemList;
  }

  status(): McpServerView[] {
    return this.servers().map((s) => s.status({ tokens: s.tools.length ? estimateTokens(s.tools.map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema }))) : 0 }));
  }

  /** Resolves when no server is starting any more (or after `timeoutMs`): `mcp list` and `context` wait for this. */
  async settled(timeoutMs: number): Promise<void> {
    await this.start();
    const deadline = Date.now() + timeoutMs;
    while (this.servers().some((s) => s.state === 'starting') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  /**
   * The user approves or denies a project server: remembered for this folder (an approval for
   * this definition only), and, when the servers are running, applied at once. Undefined when no
   * server has that name; a server of another scope needs no answer and is returned as it is.
   */
  async decide(name: string, decision: ApprovalDecision): Promise<McpServerConfig | undefined> {
    const c = this.server(name)?.config ?? (await this.opts.readConfig()).servers.find((s) => s.name === name);
    if (!c || !needsApproval(c.scope)) return c;
    await this.opts.approvals.record(this.opts.cwd, name, await this.approvalHash(c), decision);
    if (this.loading) await this.reload();
    return c;
  }

  /** Forgets approvals and denials for this folder (one server or all); those servers ask again. */
  async resetApprovals(name?: string): Promise<number> {
    const n = await this.opts.approvals.reset(this.opts.cwd, name);
    if (this.loading) await this.reload();
    return n;
  }

  /** Starts a failed or stopped server again (the status view's Retry). */
  async restart(name: string): Promise<void> {
    const s = this.server(name);
    if (s && (await this.blockedBy(s.config)) === undefined) await s.restart();
  }

  /** Ends every server and its processes. */
  async shutdown(): Promise<void> {
    this.disposed = true;
    // A reload under way finishes first (it starts nothing now), so no server is made after the sweep.
    await this.queue;
    const all = [...this.byName.keys()];
    await Promise.all(all.map((n) => this.remove(n)));
  }

  dispose(): void {
    void this.shutdown().finally(() => this.changed.dispose());
  }
}
