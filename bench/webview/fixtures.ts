import type { ViewMessage } from '../../src/shared/viewState';

// Deterministic content for the webview benchmark: a history that looks like a working session
// (questions, Markdown answers with code, tool cards with results, the odd notice) and the answers
// that are streamed into it. Same seed, same bytes, so runs compare.

/** mulberry32: a tiny seeded generator, enough for reproducible variety. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = ['src/app.ts', 'src/agent/queryLoop.ts', 'webview-ui/src/components/App.tsx', 'test/unit/store.test.ts', 'README.md', 'src/context/git.ts'];

function numbered(lines: number, start: number): string {
  return Array.from({ length: lines }, (_, i) => `${String(start + i).padStart(6)}\t  const value${i} = compute(${i}, options);`).join('\n');
}

function answerText(i: number): string {
  const file = FILES[i % FILES.length]!;
  const parts = [
    `I looked at \`${file}\` and the failing case comes from the **retry** path: the counter is reset before the check, so the second attempt never sees the first error.`,
    '',
    '- keep the counter across attempts',
    `- log the attempt number (now ${i % 7})`,
    '- add a test that fails twice, then succeeds',
  ];
  if (i % 3 === 0) {
    parts.push('', '```ts', `export function retry${i}(attempts: number): boolean {`, '  for (let n = 0; n < attempts; n++) {', '    if (tryOnce(n)) return true;', '  }', '  return false;', '}', '```');
  }
  parts.push('', 'That keeps the behaviour the same for the first attempt.');
  return parts.join('\n');
}

/** A history of `n` messages in the proportions of a real agent session. */
export function makeHistory(n: number): ViewMessage[] {
  const out: ViewMessage[] = [];
  for (let i = 0; out.length < n; i++) {
    const slot = i % 8;
    const id = `h${i}`;
    const createdAt = 1_700_000_000_000 + i * 1000;
    const file = FILES[i % FILES.length]!;
    if (slot === 0) out.push({ kind: 'user', id, text: `Please look at ${file} and fix the failing test (#${i}). Keep the public API as it is.`, createdAt, rewindable: true });
    else if (slot === 1 || slot === 4 || slot === 7) out.push({ kind: 'assistant', id, text: answerText(i), streaming: false, createdAt });
    else if (slot === 2)
      out.push({ kind: 'tool', id, name: 'Read', summary: file, input: JSON.stringify({ file_path: file, offset: 10, limit: 40 }, null, 2), status: 'done', result: numbered(40, 10), durationMs: 8, createdAt });
    else if (slot === 3)
      out.push({
        kind: 'tool',
        id,
        name: 'Bash',
        summary: 'npm test -- --grep retry',
        input: JSON.stringify({ command: 'npm test -- --grep retry', description: 'Run the retry tests' }, null, 2),
        status: i % 16 === 3 ? 'error' : 'done',
        result: `> threadline@0.1.0 test\n> node scripts/testUnit.mjs\n\n✔ retries once (3.1ms)\n${i % 16 === 3 ? '✖ retries twice (1.2ms)\n\nExit code 1' : '✔ retries twice (1.4ms)'}`,
        durationMs: 2350,
        createdAt,
      });
    else if (slot === 5)
      out.push({ kind: 'tool', id, name: 'Grep', summary: 'resetCounter', input: JSON.stringify({ pattern: 'resetCounter', path: 'src' }, null, 2), status: 'done', result: `src/app.ts:12:  resetCounter();\nsrc/agent/queryLoop.ts:88:  resetCounter(state);`, durationMs: 40, createdAt });
    else if (i % 5 === 0) out.push({ kind: 'notice', id, level: 'info', text: 'Rewound the conversation to before that message. Files on disk were not changed.', createdAt });
    else out.push({ kind: 'tool', id, name: 'Edit', summary: file, input: JSON.stringify({ file_path: file, old_string: 'resetCounter();', new_string: '' }, null, 2), status: 'done', result: `Edited ${file}`, durationMs: 5, createdAt });
  }
  return out.slice(0, n);
}

/** About 2,000 characters of answer: prose, a list, inline code and one code block. */
export const STREAM_ANSWER = [
  '## What changed',
  '',
  'The session recorder rewrote the whole transcript on every save, so a long session paid for its history on each message. It now **appends** only the messages that are new since the last save, and it keeps the byte offset of the last line it wrote.',
  '',
  'Three places needed care:',
  '',
  '1. `SessionWriter.save()` compares the new history with what it wrote by id, not by index, so a rewind truncates the file first.',
  '2. A compaction starts a new segment: the archive keeps the old lines and the live file starts again from the summary.',
  '3. A crash mid-write leaves at most one partial line, which the reader skips and reports.',
  '',
  '```ts',
  'export function appendNew(written: readonly string[], history: readonly Message[]): Message[] {',
  '  const seen = new Set(written);',
  '  return history.filter((m) => !seen.has(m.id));',
  '}',
  '```',
  '',
  'The benchmark that saved one message into a 5,200-message session now takes a constant time, and the tests cover the rewind and the crash. If you want, I can also add a `--verify` flag to the CLI that re-reads a session and prints any line it had to skip, which would make support questions about a broken transcript much quicker to answer.',
  '',
  '> Note: nothing in the on-disk format changed, so older sessions still open.',
  '',
  'Run `npm test` to see it pass; the new figures are in the README table.',
].join('\n');

/** About 12 KB of Markdown with several fenced code blocks, the heavy case for the renderer. */
export function makeLongAnswer(): string {
  const parts: string[] = ['# A walk through the change', ''];
  for (let s = 0; parts.join('\n').length < 12_000; s++) {
    parts.push(`## Part ${s + 1}: \`module${s}.ts\``, '');
    parts.push(`This part moves the helper \`helper${s}\` down a layer, so that **both** the agent and the CLI can use it without an import cycle. The behaviour stays the same; only where the code lives changes.`, '');
    parts.push('- the old import is replaced', '- a test pins the behaviour', `- the benchmark for part ${s + 1} is unchanged`, '');
    const lang = ['ts', 'bash', 'json', 'python'][s % 4]!;
    parts.push('```' + lang);
    if (lang === 'ts') parts.push(`import { helper${s} } from '../base/helper${s}';`, '', `export function use${s}(input: string): number {`, `  const parts = input.split(',');`, `  return parts.map((p) => helper${s}(p.trim())).reduce((a, b) => a + b, 0);`, '}');
    else if (lang === 'bash') parts.push('npm run build && npm test', `node dist/cli.js -p "check part ${s}" --output-format json | jq .result`, 'git diff --stat');
    else if (lang === 'json') parts.push('{', `  "part": ${s},`, '  "moved": ["helper", "types"],', '  "tests": { "added": 3, "changed": 1 }', '}');
    else parts.push(`def part_${s}(values):`, '    total = 0', '    for v in values:', '        total += int(v)', '    return total');
    parts.push('```', '');
  }
  return parts.join('\n');
}

/** Splits text into stream deltas of 1–7 characters (4 on average), the same way every run. */
export function tokenize(text: string, seed = 7): string[] {
  const rand = seeded(seed);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(rand() * 7);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}
