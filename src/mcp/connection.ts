// The connection layer's contract: what the rest of Threadline knows of a live MCP server. Its
// one implementation (sdk/) is the only code that imports the MCP SDK, and it is loaded on first
// use, so a session without servers never loads the SDK at all.
import type { ResolvedSpec } from './config/types';
import type { PatternTest } from './patterns';

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; description?: string; mimeType?: string };

export interface McpCallResult {
  content: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface McpConnection {
  readonly serverInfo: { name?: string; version?: string };
  /** The process of a stdio server (for the status view), when there is one. */
  readonly pid?: number;
  listTools(): Promise<McpToolInfo[]>;
  callTool(name: string, args: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number }): Promise<McpCallResult>;
  /** Ends the connection and, for stdio, the server's whole process group. */
  close(): Promise<void>;
}

/** Why a connection could not be made or was lost, as one sentence the status view and the model can show. */
export type McpFailureKind = 'unauthorized' | 'timeout' | 'spawn' | 'exited' | 'http' | 'protocol';

export class McpConnectError extends Error {
  constructor(
    readonly kind: McpFailureKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /**
   * By shape, not by class: the connection layer is a bundle of its own (dist/mcp.js) with its
   * own copy of this class, so `instanceof` is false for its errors in the host's bundle.
   */
  static is(err: unknown): err is McpConnectError {
    return err instanceof Error && typeof (err as { kind?: unknown }).kind === 'string';
  }
}

export interface ConnectOptions {
  /** The server's name, for messages. */
  name: string;
  spec: ResolvedSpec;
  /** Where a stdio server runs when its config names no folder (startFolder); a relative `cwd` is taken from here. */
  cwd: string;
  /** The environment a stdio server starts from (the host's, less the agent's own secrets). */
  baseEnv: NodeJS.ProcessEnv;
  clientVersion: string;
  /** The whole handshake (spawn or HTTP, initialize, the first tool list) must finish in this. */
  timeoutMs: number;
  /** A stdio server's stderr as it comes (the status view keeps its tail). */
  onStderr(text: string): void;
  /** The server said its tool list changed. */
  onToolsChanged(): void;
  /** The connection ended without close() (the process exited, the stream broke). */
  onClosed(reason: string): void;
  /** Sign-in for remote servers that ask for OAuth; without it a 401 fails the server with a clear message. */
  oauth?: McpOAuthHost;
  /** A step of the start worth showing (waiting for the user to sign in). */
  onProgress?(text: string): void;
  /** The start is no longer wanted (the session ended): the process it spawned ends at once. */
  signal?: AbortSignal;
  /** Runs the patterns of a tool's outputSchema (RE2: linear time); without it they are not checked. */
  patternEngine?: PatternTest;
}

/** What OAuth saves for one server: its client registration, tokens, the PKCE verifier, the loopback port. */
export interface McpOAuthState {
  client?: unknown;
  tokens?: unknown;
  verifier?: string;
  port?: number;
}

/** The host's part of signing in: keeping the state secret, and showing the user the sign-in page. */
export interface McpOAuthHost {
  load(server: string): Promise<McpOAuthState | undefined>;
  save(server: string, state: McpOAuthState): Promise<void>;
  /** Opens (or prints, or follows) the authorization page; the answer comes back to Threadline's loopback address. */
  open(url: URL, server: string): void | Promise<void>;
}

export type Connect = (opts: ConnectOptions) => Promise<McpConnection>;
