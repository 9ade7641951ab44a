// The connection layer: the one place that uses the MCP SDK (@modelcontextprotocol/client v2).
// The SDK speaks the protocol (handshake, requests, cancellation, list-changed notifications,
// streamable HTTP and SSE); this file chooses the transport, bounds the handshake in time and
// turns the SDK's errors into one sentence naming the server. Built into its own bundle
// (dist/mcp.js) and loaded on first use, so the host pays for it only when a server is set up.
import { Client, SdkHttpError, SSEClientTransport, SseError, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult, type Transport } from '@modelcontextprotocol/client';
import { resolve } from 'node:path';
import { childEnv } from '../../tools/childEnv';
import { McpConnectError, type Connect, type ConnectOptions, type McpCallResult, type McpConnection, type McpContent, type McpToolInfo } from '../connection';
import { LoopbackOAuthProvider } from './oauth';
import { safeSchemaValidator } from './schemaValidator';
import { GroupStdioTransport } from './stdioTransport';

/** The HTTP status an SDK error carries, when it carries one. */
function statusOf(err: unknown): number | undefined {
  if (UnauthorizedError.isInstance(err)) return 401;
  if (SdkHttpError.isInstance(err)) return err.status;
  if (SseError.isInstance(err)) return err.code;
  const m = /\b(?:HTTP|status(?: code)?)[ :]*([1-5]\d\d)\b/i.exec(err instanceof Error ? err.message : String(err));
  return m ? Number(m[1]) : undefined;
}

function describe(name: string, err: unknown): McpConnectError {
  if (McpConnectError.is(err)) return err;
  const status = statusOf(err);
  const text = err instanceof Error ? err.message : String(err);
  if (status === 401) return new McpConnectError('unauthorized', `MCP server "${name}" answered 401 Unauthorized: it needs credentials (an "Authorization" header in its "headers", e.g. "Bearer \${TOKEN}")`, 401, { cause: err });
  if (status === 403) return new McpConnectError('unauthorized', `MCP server "${name}" answered 403 Forbidden: the credentials it was given do not allow this`, 403, { cause: err });
  if (status !== undefined) return new McpConnectError('http', `MCP server "${name}" answered HTTP ${status}: ${text}`, status, { cause: err });
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new McpConnectError('spawn', `MCP server "${name}" could not start: its command was not found (${text})`, undefined, { cause: err });
  if (code === 'EACCES') return new McpConnectError('spawn', `MCP server "${name}" could not start: its command is not executable (${text})`, undefined, { cause: err });
  if (code === 'ECONNREFUSED') return new McpConnectError('http', `MCP server "${name}" refused the connection (is it running?)`, undefined, { cause: err });
  return new McpConnectError('protocol', `MCP server "${name}": ${text}`, undefined, { cause: err });
}

function exitText(t: Transport): string {
  const exit = t instanceof GroupStdioTransport ? t.exit : undefined;
  if (!exit) return 'the connection closed';
  return exit.signal ? `the process was ended by ${exit.signal}` : `the process exited with code ${exit.code}`;
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref?.();
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function toContent(c: CallToolResult['content'][number]): McpContent {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: c.text };
    case 'image':
      return { type: 'image', data: c.data, mimeType: c.mimeType };
    case 'audio':
      return { type: 'audio', data: c.data, mimeType: c.mimeType };
    case 'resource': {
      const r = c.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      return { type: 'resource', resource: { uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...(typeof r.text === 'string' ? { text: r.text } : {}), ...(typeof r.blob === 'string' ? { blob: r.blob } : {}) } };
    }
    case 'resource_link':
      return { type: 'resource_link', uri: c.uri, ...(c.name ? { name: c.name } : {}), ...(c.description ? { description: c.description } : {}), ...(c.mimeType ? { mimeType: c.mimeType } : {}) };
    default:
      return { type: 'text', text: `[content of type ${(c as { type: string }).type}]` };
  }
}

type AnyTransport = Transport & { pid?: number; finishAuth?(params: URLSearchParams): Promise<void> };

/**
 * After the SDK sent the user to the sign-in page (it then fails the request as unauthorized):
 * waits for the callback and redeems the code. False when no sign-in was started.
 */
async function signedIn(opts: ConnectOptions, transport: AnyTransport, provider: LoopbackOAuthProvider | undefined, err: unknown): Promise<boolean> {
  const callback = provider && McpConnectError.is(err) && err.kind === 'unauthorized' ? provider.takeCallback() : undefined;
  if (!callback || !transport.finishAuth) return false;
  opts.onProgress?.(`waiting for you to sign in to ${opts.name} (its sign-in page was opened)`);
  await transport.finishAuth(await callback);
  return true;
}

async function open(opts: ConnectOptions, transport: AnyTransport, provider?: LoopbackOAuthProvider): Promise<McpConnection> {
  const client = new Client(
    { name: 'threadline', version: opts.clientVersion },
    // The tool list is read again when the server says it changed (debounced by the SDK).
    { capabilities: {}, jsonSchemaValidator: safeSchemaValidator(opts.patternEngine, (why) => opts.onStderr(`[threadline] ${why}\n`)), listChanged: { tools: { autoRefresh: false, onChanged: () => opts.onToolsChanged() } } },
  );
  let closing = false;
  const abandon = () => void transport.close().catch(() => undefined);
  opts.signal?.addEventListener('abort', abandon, { once: true });
  client.onclose = () => {
    if (!closing) opts.onClosed(exitText(transport));
  };
  // Errors that do not end the connection (a malformed line) are the server's problem; the status view has its log.
  client.onerror = (err) => opts.onStderr(`[threadline] ${err.message}\n`);
  try {
    await withTimeout(client.connect(transport), opts.timeoutMs, () => new McpConnectError('timeout', `MCP server "${opts.name}" did not finish starting within ${Math.round(opts.timeoutMs / 1000)} s`));
  } catch (err) {
    closing = true;
    const exit = transport instanceof GroupStdioTransport ? transport.exit : undefined;
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    // A server that died while starting says more by how it ended than by "connection closed".
    if (exit && !(McpConnectError.is(err))) throw new McpConnectError('exited', `MCP server "${opts.name}" ended before it finished starting: ${exitText(transport)}`, undefined, { cause: err });
    throw describe(opts.name, err);
  }
  // A request the server wants signed in for (a server that asks only after the handshake, or a
  // tool that needs a wider scope: step-up): sign in, then ask once more.
  const signInAndRetry = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      try {
        return await request();
      } catch (err) {
        if (!(await signedIn(opts, transport, provider, describe(opts.name, err)))) throw err;
        return await request();
      }
    } catch (err) {
      throw describe(opts.name, err);
    }
  };
  opts.signal?.removeEventListener('abort', abandon);
  const info = client.getServerVersion();
  return {
    serverInfo: { ...(info?.name ? { name: info.name } : {}), ...(info?.version ? { version: info.version } : {}) },
    ...(transport.pid ? { pid: transport.pid } : {}),
    async listTools(): Promise<McpToolInfo[]> {
      const r = await signInAndRetry(() => client.listTools());
      return r.tools.map((t) => ({
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
        inputSchema: t.inputSchema as Record<string, unknown>,
        ...(t.annotations ? { annotations: t.annotations } : {}),
      }));
    },
    async callTool(name, args, o): Promise<McpCallResult> {
      const r = (await signInAndRetry(() => client.callTool({ name, arguments: args }, { signal: o.signal, timeout: o.timeoutMs, resetTimeoutOnProgress: true }))) as CallToolResult;
      return { content: (r.content ?? []).map(toContent), ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}), ...(r.isError ? { isError: true } : {}) };
    },
    async close() {
      closing = true;
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
    },
  };
}

function headersInit(headers: Record<string, string> | undefined): RequestInit | undefined {
  return headers && Object.keys(headers).length ? { headers } : undefined;
}

/** A server that does not speak streamable HTTP answers its POST with 404 or 405: then SSE is tried. */
const speaksOnlySse = (err: unknown) => {
  const s = McpConnectError.is(err) ? err.status : statusOf(err);
  return s === 404 || s === 405;
};

export const connect: Connect = async (opts) => {
  const { spec } = opts;
  if (spec.transport === 'stdio') {
    const transport = new GroupStdioTransport({
      command: spec.command!,
      args: spec.args ?? [],
      env: childEnv(spec.env ?? {}, opts.baseEnv),
      cwd: spec.cwd ? resolve(opts.cwd, spec.cwd) : opts.cwd,
      onStderr: opts.onStderr,
    });
    return open(opts, transport);
  }
  let url: URL;
  try {
    url = new URL(spec.url!);
  } catch {
    throw new McpConnectError('http', `MCP server "${opts.name}": "${spec.url}" is not a URL`);
  }
  const requestInit = headersInit(spec.headers);
  const provider = opts.oauth ? await LoopbackOAuthProvider.create(opts.name, opts.oauth, spec.oauth) : undefined;
  const options = { ...(requestInit ? { requestInit } : {}), ...(provider ? { authProvider: provider } : {}) };
  const make = (kind: 'http' | 'sse'): AnyTransport => (kind === 'sse' ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options));
  const attempt = async (kind: 'http' | 'sse') => {
    const transport = make(kind);
    try {
      return await open(opts, transport, provider);
    } catch (err) {
      if (!(await signedIn(opts, transport, provider, err))) throw err;
      return open(opts, make(kind), provider);
    }
  };
  try {
    if (spec.transport === 'sse') return await attempt('sse');
    try {
      return await attempt('http');
    } catch (err) {
      if (!speaksOnlySse(err)) throw err;
      return await attempt('sse');
    }
  } finally {
    provider?.close();
  }
};
