import { promises as fs, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGlobTool } from '../src/tools/builtin/glob';
import { createGrepTool } from '../src/tools/builtin/grep';
import { Permissions } from '../src/permissions/permissions';
import { readClaudeSettings, type RuleSource } from '../src/permissions/ruleSources';
import { globToRegExp as globToRegExpNew } from '../src/tools/glob';
import type { Tool } from '../src/tools/types';
import { globToRegExp as oldGlob, walkGlob as oldWalk } from './legacy/oldSearch';
import { median } from './stats';

const FILES = 50_000;
/** Runs of each side, alternated. */
const RUNS = 4;

/** 500 folders of 100 small source files each; every 1,000th file holds the needle. */
function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'tl-bench-search-'));
  const line = (k: number) => `export function handler${k}(input: string): string { return input.trim(); } // line ${k}\n`;
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(root, 'src', `mod${Math.floor(d / 25)}`, `part${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const n = d * 100 + f;
      const body = Array.from({ length: 20 }, (_, k) => line(n + k)).join('') + (n % 1000 === 0 ? 'const NEEDLE_VALUE = 42;\n' : '');
      writeFileSync(join(dir, `file${f}.${f % 4 === 0 ? 'js' : 'ts'}`), body);
    }
  }
  return root;
}

/** The old Grep: the old walk, then every line through a backtracking RegExp. */
async function oldGrep(root: string, pattern: string, glob: string): Promise<number> {
  const re = new RegExp(pattern);
  const files = (await oldWalk(root, glob)).sort((a, b) => (a.rel < b.rel ? -1 : 1));
  let hits = 0;
  for (const f of files) {
    const text = await fs.readFile(f.abs, 'utf8');
    if (text.split('\n').some((l) => re.test(l))) hits++;
  }
  return hits;
}

/**
 * The old and the new way, alternated `runs` times (old, new, new, old, …), each figure the
 * median of its runs, in wall-clock time and in this process's CPU time (the reading threads
 * included). The ratios are wall-clock, the time a user waits. The CPU times say why they move
 * with the machine's load: the new Grep does about 1.2x the old one's work (RE2 in JavaScript
 * against V8's own RegExp) and is faster only by reading files while it matches, so it wins when
 * a core is free (0.8-0.9x) and loses when others take them (1.2-1.8x in runs of the same build).
 */
async function timePair<A, B>(runs: number, oldWay: () => Promise<A>, newWay: () => Promise<B>): Promise<[Timed<A>, Timed<B>]> {
  const wall = { old: [] as number[], new: [] as number[] };
  const cpu = { old: [] as number[], new: [] as number[] };
  let a: A | undefined;
  let b: B | undefined;
  for (let k = 0; k < runs; k++) {
    for (const side of k % 2 ? (['new', 'old'] as const) : (['old', 'new'] as const)) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      if (side === 'old') a = await oldWay();
      else b = await newWay();
      const c = process.cpuUsage(c0);
      wall[side].push(performance.now() - t0);
      cpu[side].push((c.user + c.system) / 1000);
    }
  }
  return [
    { ms: median(wall.old), cpuMs: median(cpu.old), value: a! },
    { ms: median(wall.new), cpuMs: median(cpu.new), value: b! },
  ];
}

interface Timed<T> {
  ms: number;
  cpuMs: number;
  value: T;
}

const ratio = (n: Timed<unknown>, o: Timed<unknown>) => +(n.ms / o.ms).toFixed(2);

async function time<T>(runs: number, fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const ms: number[] = [];
  let value: T | undefined;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    value = await fn();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), value: value! };
}

async function call(tool: Tool<never>, input: unknown, cwd: string): Promise<string> {
  const parsed = tool.parse(input);
  if (!parsed.ok) throw new Error(parsed.error);
  return (await tool.call(parsed.value, { cwd, signal: new AbortController().signal })).content;
}

/**
 * The permission engine as the CLI builds it, as the search scope of Grep and Glob: Claude Code's
 * settings files in the tree and the home folder (read once per session, as the CLI does), with a
 * few rules of each kind. `reads` counts how often a search asks for the rule sources.
 */
function engine(root: string): { permissions: Permissions; reads: () => number } {
  const home = join(root, '..', `${root.split('/').pop()}-home`);
  mkdirSync(join(root, '.claude'), { recursive: true });
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Read(src/**)', 'Bash(npm test)'], deny: ['Read(./.env)', 'Read(secrets/**)'], ask: ['Edit(package.json)'] } }));
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Read(~/notes/**)'], deny: ['Read(~/.ssh/**)'], additionalDirectories: ['~/shared'] } }));
  let reads = 0;
  let claude: RuleSource[] | undefined;
  const permissions = new Permissions({
    cwd: root,
    rules: () => {
      reads++;
      return { allow: ['Read'], ask: [], deny: [] };
    },
    rulesLabel: '--allowed-tools',
    trusted: () => true,
    headless: true,
    sources: () => (claude ??= readClaudeSettings({ cwd: root, home, env: {} })),
  });
  return { permissions, reads: () => reads };
}

/**
 * Glob and Grep over a 50,000-file tree, the old hand-rolled matcher and walk against picomatch +
 * RE2 + fdir in the same run (each the median of 4, the two alternated). A ratio below 1 means
 * the new one is faster (wall clock; the CPU times are printed too).
 * The new tools run as the agent runs them: every file found goes through the permission engine
 * (its read rules and the folders it may read), which the old walk did not have.
 */
export async function benchSearch(): Promise<Record<string, number>> {
  const root = makeTree();
  const scope = engine(root);
  const glob = createGlobTool(scope.permissions) as unknown as Tool<never>;
  const grep = createGrepTool(scope.permissions) as unknown as Tool<never>;

  const readsBefore = scope.reads();
  const [oldG, newG] = await timePair(
    RUNS,
    async () => (await oldWalk(root, '**/*.js')).length,
    async () => (await call(glob, { pattern: '**/*.js' }, root)).split('\n').length,
  );
  const readsPerSearch = (scope.reads() - readsBefore) / RUNS;
  if (oldG.value !== FILES / 4) throw new Error(`old Glob found ${oldG.value}`);
  const [oldLit, newLit] = await timePair(
    RUNS,
    () => oldGrep(root, 'NEEDLE_VALUE', '**/*'),
    async () => (await call(grep, { pattern: 'NEEDLE_VALUE' }, root)).split('\n').length,
  );
  if (oldLit.value !== newLit.value || newLit.value !== FILES / 1000) throw new Error(`Grep found ${oldLit.value} (old) and ${newLit.value} (new)`);
  // Rare enough (about 750 files) that every hit fits Grep's largest head_limit (5,000 since pass 46 F3).
  const regex = 'handler\\d+999\\(input: string\\): string \\{ return input\\.trim';
  const [oldRe, newRe] = await timePair(
    RUNS,
    () => oldGrep(root, regex, 'src/**/*.ts'),
    async () => (await call(grep, { pattern: regex, glob: 'src/**/*.ts', head_limit: 5_000 }, root)).split('\n').length,
  );
  if (oldRe.value !== newRe.value) throw new Error(`regex Grep found ${oldRe.value} (old) and ${newRe.value} (new)`);

  // A clone's settings may hold 200 deny rules, each tested on every file a search finds (pass 52
  // M1: 69 s for one Grep of 100,000 files). The same Glob with them, against the few rules above.
  const many = new Permissions({
    cwd: root,
    rules: () => ({ allow: ['Read'], ask: [], deny: Array.from({ length: 200 }, (_, i) => `Read(secret${i}.key)`) }),
    trusted: () => true,
    headless: true,
  });
  const globMany = createGlobTool(many) as unknown as Tool<never>;
  const [fewRules, manyRules] = await timePair(
    RUNS,
    async () => (await call(glob, { pattern: '**/*.js' }, root)).split('\n').length,
    async () => (await call(globMany, { pattern: '**/*.js' }, root)).split('\n').length,
  );
  if (fewRules.value !== manyRules.value) throw new Error(`Glob found ${fewRules.value} (few rules) and ${manyRules.value} (200 deny rules)`);

  // Matching one long name against a glob built to backtrack; the old compiler takes exponential
  // time here, so it is measured on a name short enough to finish (24 characters).
  const evil = '*a*a*a*a*a*a*a*a*b';
  const shortName = 'a'.repeat(24);
  const oldEvil = await time(1, async () => oldGlob(evil).test(shortName));
  const newEvil = await time(1, async () => globToRegExpNew(evil).test(shortName));

  // A .gitignore'd build folder as big as the sources: the new walk never enters it.
  const dist = join(root, 'dist');
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(dist, `c${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dist, `c${d}`, `out${f}.js`), 'x\n');
  }
  writeFileSync(join(root, '.gitignore'), 'dist/\n');
  const [oldIgn, newIgn] = await timePair(
    RUNS,
    async () => (await oldWalk(root, '**/*.js')).length,
    async () => (await call(glob, { pattern: '**/*.js' }, root)).split('\n').length,
  );

  return {
    files: FILES,
    ruleSourceReadsPerSearch: readsPerSearch,
    globOldMs: +oldG.ms.toFixed(0),
    globNewMs: +newG.ms.toFixed(0),
    globOldCpuMs: +oldG.cpuMs.toFixed(0),
    globNewCpuMs: +newG.cpuMs.toFixed(0),
    globNewOverOld: ratio(newG, oldG),
    grepLiteralOldMs: +oldLit.ms.toFixed(0),
    grepLiteralNewMs: +newLit.ms.toFixed(0),
    grepLiteralOldCpuMs: +oldLit.cpuMs.toFixed(0),
    grepLiteralNewCpuMs: +newLit.cpuMs.toFixed(0),
    grepLiteralNewOverOld: ratio(newLit, oldLit),
    grepRegexOldMs: +oldRe.ms.toFixed(0),
    grepRegexNewMs: +newRe.ms.toFixed(0),
    grepRegexOldCpuMs: +oldRe.cpuMs.toFixed(0),
    grepRegexNewCpuMs: +newRe.cpuMs.toFixed(0),
    grepRegexNewOverOld: ratio(newRe, oldRe),
    evilGlob24CharsOldMs: +oldEvil.ms.toFixed(1),
    evilGlob24CharsNewMs: +newEvil.ms.toFixed(1),
    glob200DenyRulesMs: +manyRules.ms.toFixed(0),
    glob200DenyRulesOverFew: ratio(manyRules, fewRules),
    globWithIgnoredDistOldMs: +oldIgn.ms.toFixed(0),
    globWithIgnoredDistNewMs: +newIgn.ms.toFixed(0),
  };
}
