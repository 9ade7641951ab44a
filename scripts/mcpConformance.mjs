// Runs the official MCP conformance suite's client scenarios (@modelcontextprotocol/conformance)
// against Threadline's connection layer, through scripts/mcpConformanceClient.ts, and prints a
// Markdown table of the results (README's "Conformance" section is this table).
//   node scripts/mcpConformance.mjs [scenario ...]     default: initialize, tools_call, the auth scenarios
// The suite needs Node 22 or later (fs.globSync); the e2e toolchain's Node 24 runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureE2eToolchain } from './e2eSetup.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const tsx = pathToFileURL(require.resolve('tsx')).href;
const client = `"${process.execPath}" --import ${tsx} "${join(root, 'scripts/mcpConformanceClient.ts')}"`;

const AUTH = [
  'auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3', 'auth/basic-cimd',
  'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported', 'auth/scope-omitted-when-undefined', 'auth/scope-step-up', 'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none', 'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback',
];
const scenarios = process.argv.slice(2).length ? process.argv.slice(2) : ['initialize', 'tools_call', ...AUTH];

const tools = await ensureE2eToolchain();
const node = existsSync(join(tools.nodeBin, 'node')) ? join(tools.nodeBin, 'node') : process.execPath;
const work = mkdtempSync(join(tmpdir(), 'tl-mcp-conformance-'));
const rows = [];
for (const scenario of scenarios) {
  const r = spawnSync(node, [suite, 'client', '--command', client, '--scenario', scenario, '--timeout', '60000'], { cwd: work, encoding: 'utf8', timeout: 180_000 });
  // eslint-disable-next-line no-control-regex
  const text = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '');
  const passed = /Passed: (\d+)\/(\d+)/.exec(text);
  const failing = [...text.matchAll(/\[([\w-]+)\s*\] FAILURE (.*)$/gm)].map((m) => `${m[1]}: ${m[2].trim()}`);
  const ok = r.status === 0 && /OVERALL: PASSED/.test(text);
  const why = ok ? [] : failing.length ? failing : [text.includes('CLIENT EXITED WITH ERROR') ? `client exited with an error: ${(/Stderr:\n([\s\S]*?)\n\n/.exec(text)?.[1] ?? '').trim().split('\n').slice(-2).join(' ')}` : 'no result'];
  rows.push({ scenario, ok, passed: passed ? `${passed[1]}/${passed[2]}` : '?', failing: why });
  process.stderr.write(`${scenario}: ${ok ? 'pass' : 'FAIL'} (${passed ? passed[0] : 'no result'})\n`);
}
console.log('| scenario | result | checks passed | failing checks |');
console.log('|---|---|---:|---|');
for (const r of rows) console.log(`| ${r.scenario} | ${r.ok ? 'pass' : 'fail'} | ${r.passed} | ${r.failing.join('; ').replace(/\|/g, '\\|').slice(0, 300)} |`);
process.exit(rows.every((r) => r.ok) ? 0 : 1);
