import { commandBase, spellsOption, type SimpleCommand } from './commands';
import { parseJsonText } from '../../fs/jsonText';
import { readCappedSync } from '../../fs/read';
import { isFileSync, isFolderSync } from '../../fs/stat';
import { existingLocation, foldersUp, kernelJoin } from '../../fs/paths';

// tsc runs no code of the project's, but its tsconfig.json says which files it reads and where
// it writes: `"extends": "/home/u/.ssh/id_rsa"` printed the key line by line in its errors, and
// `"outFile"`, `"tsBuildInfoFile"` or `"outDir"` wrote anywhere (pass 29 F1, F2). A rule naming
// tsc covers a config only when every place it names, its extended configs' too, is inside: reads
// where reads may go, writes where writes may. A config that cannot be read through asks.

/** The compiler options whose values tsc writes to, and those it reads from. */
const WRITES = ['outDir', 'outFile', 'out', 'declarationDir', 'tsBuildInfoFile', 'generateTrace'];
const READS = ['rootDir', 'baseUrl'];
const READ_LISTS = ['rootDirs', 'typeRoots'];

/** Configs followed through `extends`, and the bytes one may hold. */
const MAX_CONFIGS = 16;
const MAX_BYTES = 1024 * 1024;

/** tsc (vue-tsc) run directly or through a package runner; the index of its name. */
function tscAt(c: SimpleCommand): number {
  const name = c.words[0] === undefined ? '' : commandBase(c.words[0]);
  if (name === 'tsc' || name === 'vue-tsc') return 0;
  if (!['npx', 'pnpx', 'bunx', 'yarn', 'pnpm'].includes(name)) return -1;
  for (let i = 1; i < Math.min(c.words.length, 4); i++) {
    const w = c.words[i];
    if (w === 'tsc' || w === 'vue-tsc') return i;
  }
  return -1;
}

export interface ConfigScope {
  /** Inside where reads may go, and not a file or folder the Read rules keep closed. */
  mayRead(real: string): boolean;
  mayWrite(real: string): boolean;
  /** A Read deny or ask rule covering a source file tsc could read (TypeScript, JavaScript, JSON) in the workspace. */
  closedSource?(): string | undefined;
}

/** Files tsc reads as sources, by their names. */
export const isTscSource = (name: string) => /\.([cm]?[jt]sx?|json)$/i.test(name);

/** The literal folder a glob starts with (`../**` → `..`, `src/*.ts` → `src`). */
const globBase = (g: string) => {
  const at = g.search(/[*?[{]/);
  const literal = at < 0 ? g : g.slice(0, at);
  return at < 0 ? literal : literal.slice(0, literal.lastIndexOf('/') + 1) || '.';
};

/** Why the tsc in `c`, run in `folder`, may read or write outside through its tsconfig; undefined when it cannot. */
export function tsconfigFinding(c: SimpleCommand, folder: string, scope: ConfigScope): string | undefined {
  const at = tscAt(c);
  if (at < 0) return undefined;
  const words = c.words.slice(at + 1);
  if (words.some((w) => w === undefined)) return undefined; // a computed word is judged elsewhere
  // tsc follows imports wherever they lead, and emits and quotes what it compiles: a denied source
  // anywhere in the workspace may reach its output or its errors (pass 58 H1).
  const closed = scope.closedSource?.();
  if (closed) return `tsc compiles the files its config and their imports name, anywhere in the workspace, and the rule ${closed} covers such a file`;
  // A response file holds options no check reads (`--outDir ../x`).
  const response = words.find((w) => w!.startsWith('@'));
  if (response) return `tsc ${response} reads options from a file, which the checks do not read`;
  let project: string | undefined;
  let operands = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (spellsOption(w, '--project') || w === '-p') project = w.includes('=') ? w.slice(w.indexOf('=') + 1) : words[++i];
    else if (w === '-b' || spellsOption(w, '--build')) return 'tsc --build follows the references of each project, which the checks do not read';
    else if (!w.startsWith('-') && /\.[cm]?[jt]sx?$/.test(w)) operands = true;
  }
  // Files on the command line: tsc reads no tsconfig.
  if (operands && project === undefined) return undefined;
  let config: string | undefined;
  if (project !== undefined) {
    const p = kernelJoin(folder, project);
    config = isFolderSync(p) ? kernelJoin(p, 'tsconfig.json') : p;
  } else {
    // tsc looks for tsconfig.json from the folder it runs in up to the root.
    config = [...foldersUp(folder)].map((dir) => kernelJoin(dir, 'tsconfig.json')).find(isFileSync);
  }
  if (config === undefined) return undefined;
  return judgeConfig(config, scope, new Set(), kernelJoin(existingLocation(config), '..'));
}

/** `startDir`: the folder of the config tsc started from, which `${configDir}` names in every config it extends. */
function judgeConfig(file: string, scope: ConfigScope, seen: Set<string>, startDir: string): string | undefined {
  const real = existingLocation(file);
  if (seen.has(real)) return undefined;
  if (seen.size >= MAX_CONFIGS) return `tsc's configs extend one another more than ${MAX_CONFIGS} deep`;
  seen.add(real);
  if (!scope.mayRead(real)) return `tsc reads its config ${file}, which is outside the workspace or covered by your Read rules`;
  const read = readCappedSync(real, { maxBytes: MAX_BYTES });
  if (!read.ok) return read.reason === 'missing' ? undefined : `tsc's config ${file} cannot be read through`;
  if (read.capped) return `tsc's config ${file} is too large to read through`;
  const parsed = parseJsonText(read.bytes.toString('utf8'), { comments: true });
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return `tsc's config ${file} cannot be read through`;
  const json = parsed.value as Record<string, unknown>;
  const dir = kernelJoin(real, '..');
  const outside = (value: unknown, write: boolean, what: string): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return `tsc's config ${file} gives ${what} a value that is not a path`;
    // TypeScript 5.5 fills in `${configDir}` with the folder of the config tsc started from; anything else in `${…}` is not read through.
    const path = value.replace(/\$\{configDir\}/g, startDir);
    if (path.includes('${')) return `tsc's config ${file} gives ${what} the value ${value}, whose \${…} the checks do not fill in`;
    const place = existingLocation(kernelJoin(dir, path));
    return (write ? scope.mayWrite(place) : scope.mayRead(place)) ? undefined : `tsc's config ${file} names ${value} (${what}), which is outside the workspace or ${write ? 'a place' : 'holds files'} your rules keep closed`;
  };
  const list = (value: unknown, what: string, each: (v: unknown) => string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return `tsc's config ${file} gives ${what} a value that is not a list`;
    for (const v of value) {
      const why = each(v);
      if (why) return why;
    }
    return undefined;
  };
  const options = (json.compilerOptions ?? {}) as Record<string, unknown>;
  if (typeof options !== 'object' || Array.isArray(options)) return `tsc's config ${file} has compilerOptions that are not an object`;
  for (const key of WRITES) {
    const why = outside(options[key], true, key);
    if (why) return why;
  }
  for (const key of READS) {
    const why = outside(options[key], false, key);
    if (why) return why;
  }
  for (const key of READ_LISTS) {
    const why = list(options[key], key, (v) => outside(v, false, key));
    if (why) return why;
  }
  const paths = options.paths;
  if (paths !== undefined) {
    if (paths === null || typeof paths !== 'object' || Array.isArray(paths)) return `tsc's config ${file} has paths that are not an object`;
    for (const targets of Object.values(paths as Record<string, unknown>)) {
      const why = list(targets, 'paths', (v) => (typeof v === 'string' ? outside(globBase(v), false, 'paths') : `tsc's config ${file} has a paths target that is not text`));
      if (why) return why;
    }
  }
  // With neither, tsc compiles every file below the config's folder (pass 58 H1: a denied src/secret.ts
  // was compiled to a readable secret.js); an extended config's list would replace it, and is read too.
  const lists = json.files === undefined && json.include === undefined ? { include: ['**/*'] } : { files: json.files, include: json.include };
  for (const [key, value] of Object.entries(lists)) {
    const why = list(value, key, (v) => (typeof v === 'string' ? outside(globBase(v), false, key) : `tsc's config ${file} has a ${key} entry that is not text`));
    if (why) return why;
  }
  const refs = list(json.references, 'references', (r) => (r !== null && typeof r === 'object' && typeof (r as { path?: unknown }).path === 'string' ? outside((r as { path: string }).path, false, 'references') : `tsc's config ${file} has a reference without a path`));
  if (refs) return refs;
  const parents = json.extends === undefined ? [] : Array.isArray(json.extends) ? json.extends : [json.extends];
  for (const parent of parents) {
    if (typeof parent !== 'string') return `tsc's config ${file} extends something that is not a path`;
    const target = extendedConfig(dir, parent);
    if (target === undefined) continue;
    const why = outside(target, false, 'extends') ?? judgeConfig(target, scope, seen, startDir);
    if (why) return why;
  }
  return undefined;
}

/** Where tsc finds an extended config: a path (`.json` added if missing), or a package in node_modules up the folders. */
function extendedConfig(dir: string, name: string): string | undefined {
  if (/^\.{0,2}\//.test(name) || name.startsWith('/') || name === '.' || name === '..') {
    const p = kernelJoin(dir, name);
    return isFileSync(p) || name.endsWith('.json') ? p : `${p}.json`;
  }
  for (const d of foldersUp(dir)) {
    const base = kernelJoin(kernelJoin(d, 'node_modules'), name);
    const found = [base, `${base}.json`, kernelJoin(base, 'tsconfig.json')].find(isFileSync);
    if (found) return found;
  }
  return undefined;
}
