// The compaction benchmark's 100-turn script, played to the reference Claude Code CLI against the
// Messages API stand-in (one `claude -p` / `claude -c -p` per turn), with its billed input-token
// equivalents computed the same way as `npm run bench`'s. Needs the reference CLI from npm:
//   node scripts/compareCompactionReference.mjs /path/to/node_modules/.bin/claude [turns]
// Not part of `npm test`.
//
// With --cost it plays the three cost sessions instead (60 new files, a working set of 4,
// a 20-prompt chat) to the reference and to Threadline's built CLI side by side, and prints the
// billed ratios (bench/cost/compare.ts, the same as compareCost.mjs with these two agents):
//   npm run build && node scripts/compareCompactionReference.mjs PATH_TO_CLAUDE --cost [--variant full|quick|all]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const claude = process.argv[2];
const usage = 'usage: node scripts/compareCompactionReference.mjs PATH_TO_CLAUDE [turns | --cost [--variant full|quick|all]]';
if (!claude || claude.startsWith('-')) {
  console.error(usage);
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
if (process.argv[3] === '--cost') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/cost/compare.ts'), '--claude', claude, '--agents', 'claude-code,threadline', ...process.argv.slice(4)], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const TURNS = Number(process.argv[3] ?? 100);
if (!Number.isInteger(TURNS) || TURNS < 1) {
  console.error(usage);
  process.exit(2);
}
const standin = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', join(root, 'test/standin/cli.ts'), '--port', '0', '--no-bodies'], { cwd: root, stdio: ['ignore', 'pipe', process.env.STANDIN_LOG ? 'inherit' : 'ignore'] });
const url = await new Promise((res) => standin.stdout.on('data', (b) => /READY (\S+)/.test(String(b)) && res(/READY (\S+)/.exec(String(b))[1])));
const post = (path, body) => fetch(`${url}/_standin/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const cwd = mkdtempSync(join(tmpdir(), 'tl-ref-compact-'));
const home = mkdtempSync(join(tmpdir(), 'tl-ref-home-'));
mkdirSync(cwd, { recursive: true });
spawnSync('git', ['init', '-q'], { cwd });
for (let i = 0; i < TURNS; i++) {
  const lines = Array.from({ length: 500 }, (_, k) => `export const value_${i}_${k} = ${k * i}; // generated line ${k} of module ${i}`);
  writeFileSync(join(cwd, `module${i}.ts`), lines.join('\n'));
}
// Anything the reference asks on the side (titles, summaries) gets a short plain answer.
for (let i = 0; i < TURNS; i++) {
  await post('enqueue', [
    { when: `Review module${i}.ts`, content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, `module${i}.ts`) } }] },
    { when: `value_${i}_499`, content: [{ type: 'text', text: `module${i}.ts defines 500 constants; nothing to change.` }] },
  ]);
  const args = i === 0 ? ['-p', `Review module${i}.ts`] : ['-c', '-p', `Review module${i}.ts`];
  const model = process.env.CLAUDE_MODEL ? ['--model', process.env.CLAUDE_MODEL] : [];
  const r = spawnSync(claude, [...args, ...model, '--allowedTools', 'Read'], { cwd, encoding: 'utf8', env: { ...process.env, HOME: home, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'x' }, timeout: 120_000 });
  if (r.status !== 0) console.error(`turn ${i}: exit ${r.status} ${r.stderr.slice(0, 300)}`);
  else if (process.env.STANDIN_LOG) console.error(`turn ${i} ok`);
}
const reqs = await (await fetch(`${url}/_standin/requests`)).json();
let billed = 0;
let peak = 0;
for (const q of reqs) {
  if (!q.usage) continue;
  const u = q.usage;
  billed += u.input_tokens + u.cache_creation_input_tokens * 1.25 + u.cache_read_input_tokens * 0.1;
  peak = Math.max(peak, u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens);
}
console.log(JSON.stringify({ turns: TURNS, requests: reqs.length, refused: reqs.filter((q) => q.status !== 200).length, billedInputTokensK: Math.round(billed / 1000), peakRequestTokensK: Math.round(peak / 100) / 10 }, null, 2));
standin.kill('SIGTERM');
