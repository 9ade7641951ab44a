import { promises as fs } from 'node:fs';
import { resolveToolPath } from './paths';
import { walkGlob } from './glob';
import type { Tool } from './types';
import { looksBinary, parseFields } from './util';

const MAX_FILE = 1024 * 1024;
const DEFAULT_HEAD = 200;

type Mode = 'files_with_matches' | 'content' | 'count';

interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  output_mode?: Mode;
  '-i'?: boolean;
  head_limit?: number;
}

export const grepTool: Tool<GrepInput> = {
  name: 'Grep',
  description:
    'Searches file contents with a regular expression (JavaScript syntax) under a folder (default: the workspace). ' +
    '`glob` filters files (e.g. "*.ts", "src/**/*.{ts,tsx}"); `output_mode` is "files_with_matches" (default), "content" (file:line:text) or "count"; `-i` ignores case. ' +
    'Skips .git, node_modules, binary files and files over 1 MB. Results are capped by head_limit (default 200).',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression to search for' },
      path: { type: 'string', description: 'Folder or file to search (default: workspace)' },
      glob: { type: 'string', description: 'Only files matching this glob' },
      output_mode: { type: 'string', enum: ['files_with_matches', 'content', 'count'] },
      '-i': { type: 'boolean', description: 'Case-insensitive' },
      head_limit: { type: 'number', description: 'Most results to return' },
    },
    required: ['pattern'],
  },
  parse: (input) => {
    const r = parseFields<GrepInput>(input, { pattern: 'string' }, { path: 'string', glob: 'string', output_mode: 'string', '-i': 'boolean', head_limit: 'number' });
    if (!r.ok) return r;
    if (r.value.output_mode && !['files_with_matches', 'content', 'count'].includes(r.value.output_mode)) return { ok: false, error: '"output_mode" must be files_with_matches, content or count' };
    try {
      new RegExp(r.value.pattern);
    } catch (e) {
      return { ok: false, error: `invalid regular expression: ${e instanceof Error ? e.message : String(e)}` };
    }
    return r;
  },
  isReadOnly: () => true,
  summarize: (i) => `${i.pattern}${i.glob ? ` in ${i.glob}` : ''}${i.path ? ` under ${i.path}` : ''}`,
  paths: (i, cwd) => [resolveToolPath(cwd, i.path ?? '.')],
  async call(i, { cwd, signal }) {
    const root = resolveToolPath(cwd, i.path ?? '.');
    const re = new RegExp(i.pattern, i['-i'] ? 'i' : '');
    const mode: Mode = i.output_mode ?? 'files_with_matches';
    const head = i.head_limit && i.head_limit > 0 ? i.head_limit : DEFAULT_HEAD;
    let st;
    try {
      st = await fs.stat(root);
    } catch {
      return { content: `Path not found: ${root}`, isError: true };
    }
    const files = st.isFile()
      ? [{ rel: root, abs: root, size: st.size, mtimeMs: st.mtimeMs }]
      : (await walkGlob(root, i.glob ?? '**/*', signal)).map((f) => ({ ...f, rel: resolveToolPath(root, f.rel) }));
    const results: string[] = [];
    let total = 0;
    const relToCwd = (abs: string) => (abs.startsWith(`${cwd}/`) ? abs.slice(cwd.length + 1) : abs);
    for (const f of files.sort((a, b) => a.abs.localeCompare(b.abs))) {
      if (signal.aborted) break;
      if (f.size > MAX_FILE) continue;
      let buf;
      try {
        buf = await fs.readFile(f.abs);
      } catch {
        continue;
      }
      if (looksBinary(f.abs, buf)) continue;
      const lines = buf.toString('utf8').split(/\r?\n/);
      let count = 0;
      lines.forEach((line, k) => {
        if (!re.test(line)) return;
        count++;
        if (mode === 'content') {
          total++;
          if (results.length < head) results.push(`${relToCwd(f.abs)}:${k + 1}:${line.length > 500 ? `${line.slice(0, 500)}…` : line}`);
        }
      });
      if (!count) continue;
      if (mode === 'files_with_matches') {
        total++;
        if (results.length < head) results.push(relToCwd(f.abs));
      } else if (mode === 'count') {
        total++;
        if (results.length < head) results.push(`${relToCwd(f.abs)}:${count}`);
      }
    }
    if (!results.length) return { content: 'No matches.' };
    const more = total > results.length ? `\n(${total - results.length} more results not shown; narrow the search or raise head_limit)` : '';
    return { content: results.join('\n') + more };
  },
};
