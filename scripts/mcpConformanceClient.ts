// The client the MCP conformance suite drives: Threadline's own connection layer (src/mcp/sdk/,
// as the extension and the CLI use it), pointed at the scenario's server. The suite appends the
// server URL and names the scenario in MCP_CONFORMANCE_SCENARIO. Signing in (the auth scenarios)
// goes through Threadline's OAuth provider and loopback callback; only "opening the browser" is
// played here, by following the authorization server's redirect.
//   node --import tsx scripts/mcpConformanceClient.ts <server-url>
import { connect } from '../src/mcp/sdk/index';
import type { McpOAuthHost, McpOAuthState } from '../src/mcp/connection';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const saved = new Map<string, McpOAuthState>();
const oauth: McpOAuthHost = {
  load: async (server) => saved.get(server),
  save: async (server, state) => void saved.set(server, state),
  open: async (page) => {
    // A person would sign in here; the suite's authorization server answers at once with a redirect to our loopback address.
    const r = await fetch(page, { redirect: 'manual' });
    const back = r.headers.get('location');
    if (!back) throw new Error(`the authorization page answered ${r.status} without a redirect`);
    await fetch(back);
  },
};

/** A client registered beforehand, as a user writes it in the server's config (`oauth.clientId`). */
function preRegistered(): { oauth?: { clientId: string; clientSecret?: string } } {
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string };
  return ctx.client_id ? { oauth: { clientId: ctx.client_id, ...(ctx.client_secret ? { clientSecret: ctx.client_secret } : {}) } } : {};
}

async function main(): Promise<void> {
  const conn = await connect({
    name: 'conformance',
    spec: { transport: 'http', url, ...preRegistered() },
    cwd: process.cwd(),
    baseEnv: process.env,
    clientVersion: '0.1.0',
    timeoutMs: 20_000,
    onStderr: (t) => process.stderr.write(t),
    onToolsChanged: () => undefined,
    onClosed: (reason) => process.stderr.write(`closed: ${reason}\n`),
    onProgress: (t) => process.stderr.write(`${t}\n`),
    oauth,
  });
  const tools = await conn.listTools();
  const signal = new AbortController().signal;
  if (scenario === 'tools_call') await conn.callTool('add_numbers', { a: 5, b: 3 }, { signal, timeoutMs: 20_000 });
  else if (scenario.startsWith('auth/')) await conn.callTool(tools.find((t) => t.name === 'test-tool')?.name ?? tools[0]?.name ?? 'test-tool', {}, { signal, timeoutMs: 20_000 });
  await conn.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
