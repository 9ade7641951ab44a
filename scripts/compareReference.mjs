// Compares the instruction files (CLAUDE.md hierarchy) Threadline sends with what the real
// Claude Code CLI sends, for the fixture workspaces in test/fixtures/instructions/.
// Not part of `npm test`: it needs the reference CLI, which comes from the npm registry.
//
//   mkdir -p /tmp/cc && cd /tmp/cc && npm init -y >/dev/null && \
//     npm_config_dangerously_allow_all_scripts=true npm install @anthropic-ai/claude-code
//   npm run build
//   node scripts/compareReference.mjs [--claude BIN] [--threadline dist/cli.js] [--only NAME]
//                                     [--json FILE] [--keep] [--texts]
//
// For each fixture: copy it to a temporary folder, replace {{ROOT}} in its files with that
// folder's path, create the symlinks fixture.json lists, `git init` its gitRoot, then run
// both CLIs (`-p hi`, cwd = fixture.json's cwd, HOME = the fixture's home/) against the
// Messages API stand-in and read the instruction files off the first user message of the
// recorded request: each file is a `Contents of PATH (KIND):` header and the text after it.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixturesDir = join(repo, 'test', 'fixtures', 'instructions');

function parseArgs(argv) {
  const out = {
    claude: process.env.CLAUDE_BIN ?? '/tmp/cc/node_modules/.bin/claude',
    threadline: process.env.THREADLINE_CLI ?? join(repo, 'dist', 'cli.js'),
    only: [],
    json: undefined,
    keep: false,
    texts: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--claude') out.claude = resolve(next());
    else if (a === '--threadline') out.threadline = resolve(next());
    else if (a === '--only') out.only.push(next());
    else if (a === '--json') out.json = resolve(next());
    else if (a === '--keep') out.keep = true;
    else if (a === '--texts') out.texts = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return out;
}

/** Starts the stand-in and resolves with its URL and a stop function. */
function startStandin() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/standin/cli.ts', '--port', '0'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    let errBuf = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`stand-in did not start in 30 s: ${errBuf}`));
    }, 30_000);
    child.stderr.on('data', (d) => {
      errBuf = (errBuf + d.toString()).slice(-4000);
    });
    child.stdout.on('data', (d) => {
      buf += d.toString();
      const m = /READY (\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolveStart({
          url: m[1],
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stand-in exited with ${code}: ${errBuf}`));
    });
  });
}

function run(cmd, args, opts) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

function walkFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Copies a fixture into a fresh temporary folder and makes it ready to run. */
function prepareFixture(name) {
  const src = join(fixturesDir, name);
  const spec = JSON.parse(readFileSync(join(src, 'fixture.json'), 'utf8'));
  const root = mkdtempSync(join(tmpdir(), `tl-instr-${name}-`));
  cpSync(src, root, { recursive: true });
  rmSync(join(root, 'fixture.json'));
  for (const f of walkFiles(root)) {
    const text = readFileSync(f, 'utf8');
    if (text.includes('{{ROOT}}')) writeFileSync(f, text.replaceAll('{{ROOT}}', root));
  }
  for (const [link, target] of Object.entries(spec.symlinks ?? {})) {
    const p = join(root, link);
    mkdirSync(dirname(p), { recursive: true });
    rmSync(p, { force: true });
    symlinkSync(target, p);
  }
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  if (spec.gitRoot) {
    const r = spawnSync('git', ['init', '-q', join(root, spec.gitRoot)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git init failed: ${r.stderr}`);
  }
  return { name, spec, root, home, cwd: join(root, spec.cwd) };
}

/** A clean environment: nothing from the caller's Claude or Threadline setup leaks in. */
function agentEnv(fx, baseUrl) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ANTHROPIC_|CLAUDE_|CLAUDECODE|THREADLINE_)/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: fx.home,
    XDG_CONFIG_HOME: join(fx.home, '.config'),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-compare-reference',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

async function standin(baseUrl, path, method = 'GET') {
  const res = await fetch(new URL(path, baseUrl), { method });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  return res.json();
}

function blocksOf(content) {
  if (typeof content === 'string') return [content];
  return (content ?? []).filter((b) => b && b.type === 'text').map((b) => b.text);
}

/** The request that carries the main conversation (the CLI may send side requests too). */
function pickRequest(requests) {
  const firstUserText = (r) => {
    const first = (r.body?.messages ?? []).find((m) => m.role === 'user');
    return first ? blocksOf(first.content).join('\n') : '';
  };
  return (
    requests.find((r) => /^Contents of .+ \([^()\n]+\):$/m.test(firstUserText(r))) ??
    [...requests].sort((a, b) => (b.body?.tools?.length ?? 0) - (a.body?.tools?.length ?? 0))[0]
  );
}

const HEADER = /^Contents of (.+) \(([^()\n]+)\):$/gm;
// Where Claude Code's claudeMd section ends: the next context section or the reminder's end.
const SECTION_END = /\n# (?:currentDate|gitStatus|directoryStructure|claudeMd)\n|\n<\/system-reminder>|\n\s+IMPORTANT: this context may or may not be relevant/;

/** Instruction files in the first user message, in the order they were sent. */
function extractFiles(request) {
  if (!request) return [];
  const first = (request.body?.messages ?? []).find((m) => m.role === 'user');
  if (!first) return [];
  const files = [];
  for (const block of blocksOf(first.content)) {
    const headers = [...block.matchAll(HEADER)];
    headers.forEach((h, i) => {
      const start = h.index + h[0].length;
      let text = block.slice(start, i + 1 < headers.length ? headers[i + 1].index : undefined);
      const end = SECTION_END.exec(text);
      if (end) text = text.slice(0, end.index);
      files.push({ path: h[1], label: h[2], text: text.trim() });
    });
  }
  return files.map((f, i) => ({ ...f, order: i + 1 }));
}

const KINDS = [
  ['managed', /managed|everyone/i],
  ['local', /not checked in/i],
  ['user', /private global|for all projects/i],
  ['project', /checked into the codebase/i],
];
function kindOf(label) {
  return KINDS.find(([, re]) => re.test(label))?.[0] ?? label;
}

async function runAgent(which, fx, baseUrl, opts) {
  await standin(baseUrl, '/_standin/reset', 'POST');
  const env = agentEnv(fx, baseUrl);
  const result =
    which === 'claude'
      ? await run(opts.claude, ['-p', 'hi'], { cwd: fx.cwd, env })
      : await run(process.execPath, [opts.threadline, '-p', 'hi', '--cwd', fx.cwd], { cwd: fx.cwd, env });
  const requests = await standin(baseUrl, '/_standin/requests');
  const request = pickRequest(requests);
  return {
    exit: result.code ?? result.signal,
    stderr: result.stderr.trim().slice(0, 2000),
    requestCount: requests.length,
    files: extractFiles(request),
  };
}

async function threadlineReport(fx, opts) {
  const r = await run(process.execPath, [opts.threadline, 'context', '--json', '--cwd', fx.cwd], { cwd: fx.cwd, env: agentEnv(fx, 'http://127.0.0.1:9') });
  try {
    return JSON.parse(r.stdout).instructionFiles ?? [];
  } catch {
    return [];
  }
}

function shortPath(fx, p) {
  if (p.startsWith(fx.home + '/')) return '~/' + p.slice(fx.home.length + 1);
  if (p.startsWith(fx.root + '/')) return p.slice(fx.root.length + 1);
  return p;
}

/** One row per file either side sent: Threadline's order, with Claude Code's extra files merged in. */
function compare(fx, tl, cc) {
  const rows = [];
  const byPath = new Map();
  const add = (f, side) => {
    let row = byPath.get(f.path);
    if (!row) {
      row = { path: f.path, file: shortPath(fx, f.path), tl: undefined, cc: undefined };
      byPath.set(f.path, row);
      rows.push(row);
    }
    if (row[side]) row[side + 'Dup'] = (row[side + 'Dup'] ?? 1) + 1;
    else row[side] = f;
  };
  for (const f of tl.files) add(f, 'tl');
  for (const f of cc.files) {
    if (byPath.has(f.path)) {
      add(f, 'cc');
      continue;
    }
    // Insert a Claude Code-only file after the row of the file Claude Code sent just before it.
    const prev = cc.files[f.order - 2];
    const at = prev ? rows.findIndex((r) => r.path === prev.path) + 1 : 0;
    const row = { path: f.path, file: shortPath(fx, f.path), tl: undefined, cc: f };
    byPath.set(f.path, row);
    rows.splice(at, 0, row);
  }
  // Order is compared among the files both sides sent, so one extra file does not shift the rest.
  const shared = rows.filter((r) => r.tl && r.cc);
  const tlRank = new Map([...shared].sort((a, b) => a.tl.order - b.tl.order).map((r, i) => [r.path, i]));
  const ccRank = new Map([...shared].sort((a, b) => a.cc.order - b.cc.order).map((r, i) => [r.path, i]));
  const squash = (t) => t.replace(/\n{3,}/g, '\n\n');
  for (const r of rows) {
    const cell = (f, dup) => (f ? `#${f.order} ${kindOf(f.label)}${dup ? ` (x${dup})` : ''}` : '-');
    r.tlCell = cell(r.tl, r.tlDup);
    r.ccCell = cell(r.cc, r.ccDup);
    r.same = r.tl && r.cc ? (r.tl.text === r.cc.text ? 'same' : squash(r.tl.text) === squash(r.cc.text) ? 'blank lines' : 'DIFFERS') : '';
    r.verdict = !r.tl
      ? 'Claude Code only'
      : !r.cc
        ? 'Threadline only'
        : kindOf(r.tl.label) !== kindOf(r.cc.label)
          ? 'kind differs'
          : r.same !== 'same'
            ? 'text differs'
            : tlRank.get(r.path) !== ccRank.get(r.path)
              ? 'order differs'
              : r.tlDup || r.ccDup
                ? 'sent twice'
                : 'match';
  }
  return rows;
}

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
  return [line(headers), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n');
}

function indent(text) {
  return text
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.claude)) {
    console.error(`Claude Code CLI not found at ${opts.claude}. Install it outside the repository:\n  mkdir -p /tmp/cc && cd /tmp/cc && npm init -y >/dev/null && npm_config_dangerously_allow_all_scripts=true npm install @anthropic-ai/claude-code\nor pass --claude PATH.`);
    process.exit(2);
  }
  if (!existsSync(opts.threadline)) {
    console.error(`Threadline CLI not found at ${opts.threadline}: run \`npm run build\` or pass --threadline PATH.`);
    process.exit(2);
  }
  const names = readdirSync(fixturesDir)
    .filter((n) => statSync(join(fixturesDir, n)).isDirectory() && existsSync(join(fixturesDir, n, 'fixture.json')))
    .filter((n) => !opts.only.length || opts.only.includes(n))
    .sort();
  const claudeVersion = spawnSync(opts.claude, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`Claude Code: ${claudeVersion}  (${opts.claude})`);
  console.log(`Threadline:  ${opts.threadline}`);

  const server = await startStandin();
  const results = [];
  try {
    for (const name of names) {
      const fx = prepareFixture(name);
      const tl = await runAgent('threadline', fx, server.url, opts);
      const cc = await runAgent('claude', fx, server.url, opts);
      const report = await threadlineReport(fx, opts);
      const rows = compare(fx, tl, cc);
      results.push({ fixture: name, description: fx.spec.description, root: fx.root, cwd: shortPath(fx, fx.cwd), threadline: tl, claudeCode: cc, threadlineReport: report, rows });

      console.log(`\n## ${name}  (cwd ${shortPath(fx, fx.cwd)}; Threadline exit ${tl.exit}, ${tl.requestCount} request(s); Claude Code exit ${cc.exit}, ${cc.requestCount} request(s))\n`);
      console.log(table(rows.map((r) => [r.file, r.tlCell, r.ccCell, r.same, r.verdict]), ['file', 'Threadline', 'Claude Code', 'text', 'verdict']));
      const notSent = report.filter((r) => r.status !== 'included');
      if (notSent.length) {
        console.log(`\nThreadline \`context --json\`, files not sent up front:`);
        for (const r of notSent) console.log(`  - ${shortPath(fx, r.path)}: ${r.status}${r.reason ? ` (${r.reason})` : ''}${r.includedFrom ? `, from ${shortPath(fx, r.includedFrom)}` : ''}`);
      }
      const differing = rows.filter((r) => (r.same && r.same !== 'same') || (opts.texts && (r.tl || r.cc)));
      for (const r of differing) {
        console.log(`\n${r.file}:`);
        if (r.tl) console.log(`  Threadline sent:\n${indent(r.tl.text)}`);
        if (r.cc) console.log(`  Claude Code sent:\n${indent(r.cc.text)}`);
      }
      if (!opts.keep) rmSync(fx.root, { recursive: true, force: true });
    }
  } finally {
    await server.stop();
  }
  if (opts.json) {
    writeFileSync(opts.json, JSON.stringify(results, null, 2));
    console.log(`\nWrote ${opts.json}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
