// `threadline mcp list|approve|deny|reset`: the CLI's status view of MCP servers, and the one
// place a headless user answers a project server's request to start.
import { resolve } from 'node:path';
import { printable } from '../base/printable';
import type { McpServices } from '../mcp/services';
import { formatTokens } from '../shared/format';
import type { McpServerView } from '../shared/mcpView';
import type { CliArgs } from './args';
import type { CliIo } from './io';
import { cliMcpServices, readCliMcpConfig } from './mcpSetup';
import { cliHost } from './host';
import { decideTrust } from './trust';

type McpCliArgs = Extract<CliArgs, { command: 'mcp' }>;

const STATE_LABEL: Record<McpServerView['state'], string> = {
  starting: 'starting',
  running: 'running',
  failed: 'failed',
  disabled: 'disabled',
  'awaiting-approval': 'needs approval',
  stopped: 'stopped',
};

/** The servers as a table, with the reason or the log of each that is not running. */
export function formatServers(servers: readonly McpServerView[]): string {
  if (!servers.length) return 'No MCP servers are configured (none in --mcp-config, .mcp.json, .vscode/mcp.json or ~/.claude.json).\n';
  // Names, sources, details and logs come from config files and servers: a newline in a name would print a line of its own.
  const rows = servers.map((s) => [printable(s.name), s.scope, STATE_LABEL[s.state], s.state === 'running' ? String(s.tools) : '-', s.state === 'running' ? formatTokens(s.tokens) : '-', printable(s.source)]);
  const head = ['NAME', 'SCOPE', 'STATE', 'TOOLS', 'TOKENS', 'SOURCE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const out = [line(head), ...rows.map(line)];
  for (const s of servers) {
    const notes = [`  ${printable(s.name)}: ${printable(s.target)}`];
    if (s.detail) notes.push(`    ${printable(s.detail)}`);
    if (s.logTail && s.state !== 'running') notes.push(...s.logTail.split('\n').slice(-5).map((l) => `    | ${printable(l)}`));
    out.push(...notes);
  }
  return `${out.join('\n')}\n`;
}

export async function mcpCommand(args: McpCliArgs, env: NodeJS.ProcessEnv, io: CliIo, version: string): Promise<number> {
  const cwd = resolve(args.cwd);
  const config = await readCliMcpConfig(cwd, args.mcp, env);
  if (config.flagErrors.length) {
    for (const e of config.flagErrors) io.err(`threadline: ${printable(e)}\n`);
    return 2;
  }
  // Trusted as for any run (remembered, or --trust); the list itself says which servers trust holds back.
  const trust = await decideTrust({ cwd, env, flag: args.trust, wouldGrant: [], io, notice: false });
  const services = cliMcpServices(cwd, args.mcp, env, version, cliHost({ env, io, trusted: trust.trusted }), io, config);
  try {
    return await run(args, services, io);
  } finally {
    await services.shutdown();
  }
}

async function run(args: McpCliArgs, services: McpServices, io: CliIo): Promise<number> {
  const m = services.manager;
  if (args.action === 'reset') {
    const n = await m.resetApprovals(args.name);
    io.out(n ? `Forgot ${n} answer${n === 1 ? '' : 's'} for this folder${args.name ? ` (${printable(args.name)})` : ''}; those servers will ask again.\n` : `No answers were remembered for this folder${args.name ? ` about ${printable(args.name)}` : ''}.\n`);
    return 0;
  }
  if (args.action === 'approve' || args.action === 'deny') {
    const c = await m.decide(args.name!, args.action === 'approve' ? 'approved' : 'denied');
    if (!c) {
      io.err(`threadline: no MCP server named "${printable(args.name!)}" is configured here (see threadline mcp list)\n`);
      return 1;
    }
    if (c.scope !== 'project') io.out(`${printable(c.name)} comes from ${printable(c.source)} (${c.scope} scope), which needs no approval.\n`);
    else if (args.action === 'approve') {
      // The definition approved is the one read just now, which may differ from the one `mcp list` showed: say what it was.
      io.out(`Approved ${printable(c.name)} for this folder, as ${printable(c.source)} defines it now:\n  ${printable(m.describe(c))}\n`);
      io.out(`It starts from now on while the folder is trusted; a change to this definition, or to the workspace it runs from, asks again.\n`);
    }
    else io.out(`Denied ${printable(c.name)} for this folder; it stays off until threadline mcp reset ${printable(c.name)}.\n`);
    return 0;
  }
  // list: start what may start, and wait for each to run or fail (each is bounded by its connect timeout).
  await m.settled(m.connectTimeoutMs + 1000);
  const servers = services.status();
  if (args.json) io.out(`${JSON.stringify({ servers, problems: m.problems() }, null, 2)}\n`);
  else {
    io.out(formatServers(servers));
    for (const p of m.problems()) io.out(`problem: ${printable(p.source)}: ${printable(p.message)}\n`);
  }
  return 0;
}
