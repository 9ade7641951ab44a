// The scripted cost sessions, as data: which files exist, what the user types, which
// files the model reads in which order and what it answers at the end. Every agent (Threadline,
// the reference CLI, the peers) plays the same script against the same stand-in.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { countTextTokens } from '../../test/standin/tokens';

export type SessionName = 'newFiles' | 'workingSet' | 'chat';
export type Variant = 'full' | 'quick';

export interface FileSpec {
  /** Relative to the workspace, with forward slashes. */
  path: string;
  /** Prefix of every line's marker (`ID_0001`), so a request can be searched for the whole file. */
  id: string;
  text: string;
  lines: number;
  /** The file's own token count (the Read result adds line numbers on top). */
  tokens: number;
}

export interface PromptSpec {
  text: string;
  /** Paths read one per model turn, in this order. */
  reads: string[];
  /** The model's last answer to this prompt. */
  final: string;
}

export interface SessionSpec {
  name: SessionName;
  variant: Variant;
  title: string;
  files: Map<string, FileSpec>;
  prompts: PromptSpec[];
}

/** Deterministic words, so every run and every agent sees byte-identical files. */
function prng(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

const WORDS = ['ledger', 'cursor', 'buffer', 'window', 'anchor', 'signal', 'thread', 'record', 'socket', 'parser', 'vector', 'status', 'region', 'module', 'filter', 'bridge', 'packet', 'render', 'commit', 'branch'];

export function markerOf(id: string, line: number): string {
  return `${id}_${String(line).padStart(4, '0')}`;
}

/** A generated TypeScript module of about `targetTokens` tokens; every line carries its marker. */
export function makeFile(path: string, id: string, targetTokens: number): FileSpec {
  const rnd = prng(id);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const lines: string[] = [];
  let tokens = 0;
  while (tokens < targetTokens) {
    const n = lines.length + 1;
    const line = `export const ${markerOf(id, n)} = combine(${Math.floor(rnd() * 9000) + 1000}, '${word()}-${word()}', ${Math.floor(rnd() * 97)}); // ${word()} ${word()} ${word()}`;
    lines.push(line);
    tokens += countTextTokens(`${line}\n`);
  }
  const text = `${lines.join('\n')}\n`;
  return { path, id, text, lines: lines.length, tokens: countTextTokens(text) };
}

export interface SessionSizes {
  fileTokens: number;
  /** newFiles and workingSet: reads in the one loop; chat: prompts (of three reads each). */
  count: number;
}

export const FULL_SIZES: Record<SessionName, SessionSizes> = {
  newFiles: { fileTokens: 8000, count: 60 },
  workingSet: { fileTokens: 8000, count: 60 },
  chat: { fileTokens: 8000, count: 20 },
};

/** Small enough for CI (the whole quick set runs in well under 20 s), large enough to clear. */
export const QUICK_SIZES: Record<SessionName, SessionSizes> = {
  newFiles: { fileTokens: 4000, count: 16 },
  workingSet: { fileTokens: 4000, count: 16 },
  chat: { fileTokens: 4000, count: 4 },
};

export function buildSession(name: SessionName, variant: Variant): SessionSpec {
  const { fileTokens, count } = (variant === 'full' ? FULL_SIZES : QUICK_SIZES)[name];
  const files = new Map<string, FileSpec>();
  const add = (id: string) => {
    const path = `src/${id}.ts`;
    if (!files.has(path)) files.set(path, makeFile(path, id, fileTokens));
    return path;
  };
  const pad = (n: number) => String(n).padStart(2, '0');
  if (name === 'newFiles') {
    const reads = Array.from({ length: count }, (_, i) => add(`m${pad(i)}`));
    return {
      name,
      variant,
      title: `one loop of ${count} reads of new files`,
      files,
      prompts: [
        {
          text: `Review the modules ${reads[0]} to ${reads.at(-1)} one at a time, in order: Read each one, then tell me whether any of them needs a change.`,
          reads,
          final: `Reviewed all ${count} modules: none of them needs a change.`,
        },
      ],
    };
  }
  if (name === 'workingSet') {
    const set = Array.from({ length: 4 }, (_, i) => add(`w${i}`));
    const reads = Array.from({ length: count }, (_, i) => set[i % set.length]!);
    return {
      name,
      variant,
      title: `one loop of ${count} reads cycling over a working set of 4 files`,
      files,
      prompts: [
        {
          text: `Cross-check ${set.join(', ')} against each other: Read them in turn (${set.map((p) => p.slice(4, -3)).join(', ')}, then again from the first), ${count} reads in all, and then report any mismatch.`,
          reads,
          final: `Checked the four modules ${count / set.length} times over: they agree.`,
        },
      ],
    };
  }
  const prompts = Array.from({ length: count }, (_, p) => {
    const reads = ['a', 'b', 'c'].map((x) => add(`c${pad(p)}${x}`));
    return {
      text: `Step ${p + 1} of ${count}: Read ${reads.join(', ')}, then tell me in one line what they export.`,
      reads,
      final: `${reads.map((r) => r.slice(4, -3)).join(', ')} export generated constants built with combine(); nothing to change.`,
    };
  });
  return { name, variant, title: `a chat of ${count} prompts of 3 reads each, each continuing the session`, files, prompts };
}

/** Every read of the session in order, across prompts. */
export function readSequence(s: SessionSpec): string[] {
  return s.prompts.flatMap((p) => p.reads);
}

/** Writes the files into a fresh git repository (committed, so the status the agents see is clean). */
export function writeWorkspace(s: SessionSpec, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const f of s.files.values()) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.text);
  }
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'files to read');
}
