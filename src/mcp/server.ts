// One configured server through its life: waiting for trust or approval, starting (bounded by
// the connect timeout), running, lost and reconnecting with backoff, failed with the tail of its
// log, stopped. Calls wait for a server that is still starting instead of failing.
import { Emitter, type Event } from '../base/event';
import type { McpServerView } from '../shared/mcpView';
import { estimateTokens } from '../conversation/tokens';
import { startFolder, type McpServerConfig, type ResolvedSpec } from './config/types';
import { McpConnectError, type Connect, type McpCallResult, type McpConnection, type McpOAuthHost, type McpToolInfo } from './connection';

/** Lines of a server's stderr kept for the status view and error messages. */
const LOG_TAIL_CHARS = 4000;
/** Delays before reconnecting after a loss or a failed start; then it stays failed until restarted. */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];

export interface ServerDeps {
  connect(): Promise<Connect>;
  /** The spec with its variables and inputs filled in, or why it cannot be. */
  resolve(config: McpServerConfig): Promise<{ ok: true; spec: ResolvedSpec } | { ok: false; error: string }>;
  /** What it runs, as the approval shows it (the manager's describe). */
  describe(config: McpServerConfig): string;
  /** The workspace and the user's home folder: where a stdio server starts is startFolder's answer. */
  folders: { workspace: string; home: string };
  baseEnv: NodeJS.ProcessEnv;
  clientVersion: string;
  connectTimeoutMs: number;
  retryDelaysMs?: readonly number[];
  oauth?: McpOAuthHost;
  /** Asked before every start, a retry or a reconnect too: what it runs may have changed since it was approved (pass 90 H2). */
  mayStart?(config: McpServerConfig): Promise<Blocked | undefined>;
}

export type Blocked = { state: 'disabled' | 'awaiting-approval'; detail: string };

export class McpServer {
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;
  private view: Pick<McpServerView, 'state' | 'detail'>;
  private connection: McpConnection | undefined;
  private toolList: McpToolInfo[] = [];
  private log = '';
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  private generation = 0;
  private stopped = false;
  /** Ends a start in progress (its process too) when the server is stopped meanwhile. */
  private starting: AbortController | undefined;
  private inflight: Promise<McpConnection> | undefined;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: ServerDeps,
    blocked?: Blocked,
  ) {
    this.view = blocked ?? { state: 'starting', detail: '' };
  }

  get name(): string {
    return this.config.name;
  }

  get state(): McpServerView['state'] {
    return this.view.state;
  }

  /** The tools of the last successful listing (kept while reconnecting). */
  get tools(): readonly McpToolInfo[] {
    return this.toolList;
  }

  status(extra: Partial<McpServerView> = {}): McpServerView {
    return {
      name: this.config.name,
      scope: this.config.scope,
      source: this.config.source,
      transport: this.config.spec.transport,
      target: this.deps.describe(this.config),
      state: this.view.state,
      detail: this.view.detail,
      ...(this.log ? { logTail: this.log.split('\n').slice(-12).join('\n').trim() } : {}),
      tools: this.toolList.length,
      tokens: this.toolList.length ? estimateTokens(this.toolList) : 0,
      ...extra,
    };
  }

  private set(state: McpServerView['state'], detail = ''): void {
    this.view = { state, detail };
    if (state !== 'starting') for (const w of this.waiters.splice(0)) w();
    this.changed.fire();
  }

  private appendLog(text: string): void {
    this.log = (this.log + text).slice(-LOG_TAIL_CHARS);
  }

  /** Starts (or restarts) the connection; resolves when it is running or has failed. */
  async start(): Promise<void> {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const generation = ++this.generation;
    this.starting?.abort();
    const starting = (this.starting = new AbortController());
    this.set('starting', this.attempt ? `reconnecting (attempt ${this.attempt + 1})` : '');
    const blocked = await this.deps.mayStart?.(this.config);
    if (generation !== this.generation) return;
    if (blocked) return this.set(blocked.state, blocked.detail);
    const resolved = await this.deps.resolve(this.config);
    if (generation !== this.generation) return;
    if (!resolved.ok) return this.set('failed', `MCP server "${this.name}" cannot start: ${resolved.error}`);
    let conn: McpConnection;
    try {
      const connect = await this.deps.connect();
      if (starting.signal.aborted) return;
      const attempt = connect({
        signal: starting.signal,
        name: this.name,
        spec: resolved.spec,
        cwd: startFolder(this.config.scope, this.deps.folders),
        baseEnv: this.deps.baseEnv,
        clientVersion: this.deps.clientVersion,
        timeoutMs: this.deps.connectTimeoutMs,
        onStderr: (t) => this.appendLog(t),
        onToolsChanged: () => void this.refreshTools(generation),
        onClosed: (reason) => this.lost(generation, reason),
        onProgress: (text) => this.set('starting', text),
        ...(this.deps.oauth ? { oauth: this.deps.oauth } : {}),
      });
      this.inflight = attempt;
      conn = await attempt;
      if (generation !== this.generation || this.stopped) {
        await conn.close();
        return;
      }
      this.connection = conn;
      this.toolList = await withDeadline(conn.listTools(), this.deps.connectTimeoutMs, `MCP server "${this.name}" did not list its tools within ${Math.round(this.deps.connectTimeoutMs / 1000)} s`);
      if (generation !== this.generation) return;
      this.attempt = 0;
      this.set('running', conn.serverInfo.name ? `${conn.serverInfo.name}${conn.serverInfo.version ? ` ${conn.serverInfo.version}` : ''}` : '');
    } catch (err) {
      if (generation !== this.generation) return;
      const e = McpConnectError.is(err) ? err : new McpConnectError('protocol', `MCP server "${this.name}": ${err instanceof Error ? err.message : String(err)}`);
      await this.connection?.close().catch(() => undefined);
      this.connection = undefined;
      // Missing credentials or a missing command do not fix themselves: no retry for those.
      this.fail(`${e.message}${e.kind === 'exited' ? this.logHint() : ''}`, e.kind !== 'unauthorized' && e.kind !== 'spawn');
    }
  }

  private fail(message: string, retry: boolean): void {
    const delays = this.deps.retryDelaysMs ?? RETRY_DELAYS_MS;
    const delay = retry && !this.stopped ? delays[this.attempt] : undefined;
    if (delay === undefined) {
      this.set('failed', message);
      return;
    }
    this.attempt++;
    clearTimeout(this.retryTimer);
    this.set('failed', `${message}; trying again in ${Math.max(1, Math.round(delay / 1000))} s`);
    this.retryTimer = setTimeout(() => void this.start(), delay);
    this.retryTimer.unref?.();
  }

  private lost(generation: number, reason: string): void {
    // Before the handshake finished, the failed start reports it (once), not this.
    if (generation !== this.generation || this.stopped || !this.connection) return;
    this.connection = undefined;
    this.fail(`MCP server "${this.name}" stopped: ${reason}${this.logHint()}`, true);
  }

  private async refreshTools(generation: number): Promise<void> {
    try {
      const tools = await this.connection?.listTools();
      if (tools && generation === this.generation) {
        this.toolList = tools;
        this.changed.fire();
      }
    } catch (err) {
      this.appendLog(`[threadline] could not read the new tool list: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }

  private logHint(): string {
    const tail = this.log.trim().split('\n').slice(-3).join(' | ').slice(-300);
    return tail ? ` (its log ends: ${tail})` : '';
  }

  /** Waits while the server is starting or about to retry; false when it will not be running. */
  async whenReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.view.state !== 'running') {
      const waiting = this.view.state === 'starting' || this.retryTimer !== undefined;
      if (!waiting || Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(250, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return true;
  }

  async call(tool: string, args: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number }): Promise<McpCallResult> {
    if (!(await this.whenReady(this.deps.connectTimeoutMs))) throw new McpConnectError('exited', this.unavailable());
    const conn = this.connection!;
    try {
      return await conn.callTool(tool, args, opts);
    } catch (err) {
      if (opts.signal.aborted) throw err;
      // The connection went during the call (a crash): say so with the server's last words.
      if (this.connection !== conn) throw new McpConnectError('exited', `MCP server "${this.name}" stopped during the call${this.logHint()}`, undefined, { cause: err });
      throw err;
    }
  }

  private unavailable(): string {
    const s = this.view;
    if (s.state === 'failed') return s.detail || `MCP server "${this.name}" failed to start`;
    if (s.state === 'starting') return `MCP server "${this.name}" is still starting`;
    return `MCP server "${this.name}" is not running (${s.state}${s.detail ? `: ${s.detail}` : ''})`;
  }

  /** Ends the connection and its processes; the server starts again only through start(). */
  async stop(state: Blocked | { state: 'stopped'; detail: string } = { state: 'stopped', detail: '' }): Promise<void> {
    this.generation++;
    this.starting?.abort();
    // A start under way ends its process on the abort; wait for that, so nothing outlives stop().
    const late = await this.inflight?.catch(() => undefined);
    if (late && late !== this.connection) await late.close().catch(() => undefined);
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const conn = this.connection;
    this.connection = undefined;
    this.set(state.state, state.detail);
    await conn?.close().catch(() => undefined);
  }

  /** The server is gone for good (the session ended). */
  async dispose(): Promise<void> {
    this.stopped = true;
    await this.stop();
    this.changed.dispose();
  }

  /** A start asked for by the user (Retry, an approval): the backoff starts over. */
  restart(): Promise<void> {
    this.stopped = false;
    this.attempt = 0;
    return this.start();
  }
}

function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new McpConnectError('timeout', message)), ms);
    t.unref?.();
    work.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
