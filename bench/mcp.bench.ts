// MCP's cost to a session: 10 stdio servers with 200 tools in all (the tests' server, the SDK's
// server side). What the first request waits for them (against a run without them, alternated
// in the same process), what is sent up front once they are ready (deferred), what one loaded
// tool adds, and what a 5 MB result does to the history and the heap.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageParam } from '../src/api/types';
import { createToolRegistry } from '../src/tools/builtin';
import { firstRequestGate } from '../src/cli/mcpSetup';
import { estimateTokens } from '../src/conversation/tokens';
import { McpServices } from '../src/mcp/services';
import { TOOL_SEARCH } from '../src/mcp/search';
import { readMcpConfig } from '../src/mcp/config/sources';
import { FileApprovalStore } from '../src/mcp/trust';
import { startStandin } from '../test/standin/server';
import { stdioServer } from '../test/support/mcpServers';
import { createStandinAgent } from '../test/support/standinAgent';
import { median } from './stats';

const SERVERS = 10;
/** The test server has 7 tools of its own; 13 more each make 200. */
const EXTRA_TOOLS = 13;
const WINDOW = 200_000;

function services(cwd: string, servers: Record<string, unknown>, maxResultTokens = 25_000): McpServices {
  const cfg = join(mkdtempSync(join(tmpdir(), 'tl-bench-mcp-')), 'servers.json');
  writeFileSync(cfg, JSON.stringify({ mcpServers: servers }));
  return new McpServices({
    cwd,
    home: tmpdir(),
    env: process.env,
    clientVersion: 'bench',
    readConfig: () => readMcpConfig({ cwd, home: tmpdir(), env: {}, flagConfigs: [cfg], strict: true }),
    trust: { isTrusted: () => true },
    approvals: new FileApprovalStore(join(mkdtempSync(join(tmpdir(), 'tl-bench-appr-')), 'a.json')),
    approveHint: () => '',
    trustHint: '',
    resultsRoot: mkdtempSync(join(tmpdir(), 'tl-bench-results-')),
    maxResultTokens: () => maxResultTokens,
  });
}

const tenServers = () => Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`svc${i}`, stdioServer('--name', `svc${i}`, '--tools', String(EXTRA_TOOLS))]));

export async function benchMcp(opts: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const standin = await startStandin({ recordBodies: true });
  const cwd = mkdtempSync(join(tmpdir(), 'tl-bench-mcp-ws-'));
  const runs = opts.quick ? 3 : 7;
  const out: Record<string, number> = {};
  try {
    // 1. Time to the first request, with and without ten servers starting at the same moment.
    const firstRequest = async (withMcp: boolean): Promise<number> => {
      const mcp = withMcp ? services(cwd, tenServers()) : undefined;
      const toolset = mcp?.toolset(() => 'bench');
      const tools = toolset ? createToolRegistry().withSource(toolset) : createToolRegistry();
      // As the CLI does: the servers are started with the session and spawn once the first answer begins.
      const gate = firstRequestGate();
      const { agent } = createStandinAgent({ url: standin.url, cwd, extra: { tools, loopEvents: { onTextDelta: () => gate.open(), onTurnComplete: () => gate.open() } } });
      standin.reset();
      standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
      const t0 = performance.now();
      if (mcp) void mcp.manager.start({ after: gate.after });
      let at = 0;
      const sent = new Promise<void>((resolve) => {
        const poll = () => (standin.requests.length ? ((at = performance.now() - t0), resolve()) : setImmediate(poll));
        poll();
      });
      await Promise.all([agent.submit('hi'), sent]);
      await mcp?.shutdown();
      return at;
    };
    await firstRequest(false);
    await firstRequest(true);
    const without: number[] = [];
    const withMcp: number[] = [];
    for (let i = 0; i < runs; i++) {
      without.push(await firstRequest(false));
      withMcp.push(await firstRequest(true));
    }
    if (process.env.TL_BENCH_VERBOSE) console.log({ without, withMcp });
    out.firstRequestNoMcpMs = +median(without).toFixed(1);
    out.firstRequest10ServersMs = +median(withMcp).toFixed(1);
    out.firstRequestAddedMs = +Math.max(0, median(withMcp) - median(without)).toFixed(1);

    // 2. Once all are ready: what goes up front, deferred, and what one loaded tool adds.
    const mcp = services(cwd, tenServers());
    const tStart = performance.now();
    await mcp.manager.settled(60_000);
    out.allServersReadyMs = Math.round(performance.now() - tStart);
    const toolset = mcp.toolset(() => 'bench');
    out.tools = toolset.tools().length;
    const history: MessageParam[] = [{ role: 'user', content: 'hi' }];
    const full = estimateTokens(mcp.manager.servers().flatMap((s) => s.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }))));
    out.definitionsAllTokens = full;
    const upFront = toolset.definitions(history, { contextWindow: WINDOW });
    out.deferred = toolset.deferred ? 1 : 0;
    out.upFrontDeferredTokens = estimateTokens(upFront);
    await toolset.get(TOOL_SEARCH)!.call({ query: 'select:mcp__svc3__query_issue' }, { cwd, signal: new AbortController().signal });
    const loaded = toolset.definitions(history, { contextWindow: WINDOW });
    out.oneLoadedToolTokens = estimateTokens(loaded) - estimateTokens(upFront);
    await mcp.shutdown();

    // 3. A 5 MB result: what the history grows by, and the heap after ten of them.
    const big = services(cwd, { big: stdioServer('--name', 'big', '--huge-bytes', String(5 * 1024 * 1024)) });
    const bigTools = big.toolset(() => 'bench');
    const { agent } = createStandinAgent({ url: standin.url, cwd, rules: { allow: ['mcp__big'] }, maxTurns: 50, extra: { tools: createToolRegistry().withSource(bigTools) } });
    await big.manager.settled(30_000);
    const gc = (globalThis as { gc?: () => void }).gc;
    const calls = opts.quick ? 3 : 10;
    let growth = 0;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i++) {
      standin.reset();
      standin.enqueue({ content: [{ type: 'tool_use', name: 'mcp__big__huge', input: {} }] }, { content: [{ type: 'text', text: 'got it' }] });
      const before = estimateTokens(agent.messages);
      await agent.submit(`fetch ${i}`);
      growth = Math.max(growth, estimateTokens(agent.messages) - before);
    }
    gc?.();
    out.result5MbHistoryGrowthTokens = growth;
    out.result5MbHeapGrowthMbAfter10 = +(((process.memoryUsage().heapUsed - heapBefore) / 1e6) * (10 / calls)).toFixed(1);
    await big.shutdown();
    return out;
  } finally {
    await standin.close();
  }
}
