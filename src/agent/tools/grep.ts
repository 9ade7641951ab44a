import { promises as fs } from 'node:fs';
import { basename } from 'node:path';
import { globToRegExp } from '../../tools/glob';
import { walkGlob } from './glob';
import { resolveToolPath } from '../../tools/paths';
import type { Tool } from '../../tools/types';
import { z } from 'zod';
import { nonEmptyString, parseToolInput, pathField, toInputSchema } from '../../tools/schema';
import { displayPath, errorMessage, hasBinaryExtension, hasNulByte, INTERRUPTED } from './util';

export const GREP_MAX_FILE_BYTES = 1024 * 1024;
export const GREP_DEFAULT_HEAD_LIMIT = 200;
const MAX_LINE_SHOWN = 500;

const MODES = ['files_with_matches', 'content', 'count'] as const;
type OutputMode = (typeof MODES)[number];

const grepInput = z.object({
  pattern: nonEmptyString('Regular expression to search for (JavaScript syntax)'),
  path: pathField('File or folder to search, absolute or relative to the workspace (default: the workspace)').optional(),
  glob: nonEmptyString('Only search files matching this glob, e.g. "*.js" or "src/**/*.ts"').optional(),
  output_mode: z.enum(MODES).optional().describe('files_with_matches (default), content or count'),
  '-i': z.boolean().optional().describe('Case-insensitive search'),
  head_limit: z.number().int().min(1).optional().describe(`Most results to return (default ${GREP_DEFAULT_HEAD_LIMIT})`),
});
type GrepInput = z.output<typeof grepInput>;

function compile(i: Pick<GrepInput, 'pattern' | '-i'>): RegExp {
  return new RegExp(i.pattern, i['-i'] ? 'i' : '');
}

export const grepTool: Tool<GrepInput> = {
  name: 'Grep',
  description: [
    'Search file contents for a regular expression (JavaScript RegExp syntax, matched line by line) in the files under a folder or in one file.',
    'path: where to search (default: the workspace). glob: only files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}". "-i": ignore case.',
    'output_mode: "files_with_matches" (default) lists matching files; "content" shows matching lines as file:line:text; "count" shows file:number of matching lines.',
    `Paths are relative to the workspace and sorted. At most head_limit results (default ${GREP_DEFAULT_HEAD_LIMIT}); the output says when it was cut.`,
    `Skips .git, node_modules, binary files and files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB. Use it instead of grep or rg in Bash; escape regex characters such as ( [ . to match them literally.`,
  ].join(' '),
  inputSchema: toInputSchema(grepInput),
  traits: { readsFiles: true, compactable: true, background: 'read' },
  parse: (input) => {
    const r = parseToolInput(grepInput, input);
    if (!r.ok) return r;
    try {
      compile(r.value);
    } catch (err) {
      return { ok: false, error: `"pattern" is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}` };
    }
    return r;
  },
  isReadOnly: () => true,
  summarize: (i) => `/${i.pattern}/${i['-i'] ? 'i' : ''}${i.glob ? ` in ${i.glob}` : ''}${i.path ? ` under ${i.path}` : ''}`,
  paths: (i, cwd) => [resolveToolPath(cwd, i.path ?? '.')],
  async call(i, { cwd, signal }) {
    if (signal.aborted) return INTERRUPTED;
    const root = resolveToolPath(cwd, i.path ?? '.');
    const re = compile(i);
    const mode: OutputMode = i.output_mode ?? 'files_with_matches';
    const head = i.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;

    let candidates: Array<{ abs: string; size: number }>;
    try {
      const st = await fs.stat(root);
      if (st.isDirectory()) candidates = await walkGlob(root, i.glob ?? '**/*', signal);
      else if (i.glob && !globToRegExp(i.glob).test(basename(root))) candidates = [];
      else candidates = [{ abs: root, size: st.size }];
    } catch (err) {
      return { content: `Cannot search ${root}: ${errorMessage(err)}.`, isError: true };
    }
    const files = candidates.map((f) => ({ ...f, shown: displayPath(cwd, f.abs) })).sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));

    const results: string[] = [];
    let cut = false;
    let tooBig = 0;
    for (const f of files) {
      if (signal.aborted) return INTERRUPTED;
      if (f.size > GREP_MAX_FILE_BYTES) {
        tooBig++;
        continue;
      }
      if (hasBinaryExtension(f.abs)) continue;
      let buf: Buffer;
      try {
        buf = await fs.readFile(f.abs);
      } catch {
        continue; // unreadable or gone
      }
      if (hasNulByte(buf)) continue;
      const lines = buf.toString('utf8').split('\n');
      if (lines.at(-1) === '') lines.pop();
      let count = 0;
      for (let n = 0; n < lines.length; n++) {
        const line = lines[n]!.endsWith('\r') ? lines[n]!.slice(0, -1) : lines[n]!;
        if (!re.test(line)) continue;
        count++;
        if (mode === 'files_with_matches') break;
        if (mode === 'content') {
          if (results.length >= head) {
            cut = true;
            break;
          }
          results.push(`${f.shown}:${n + 1}:${line.length > MAX_LINE_SHOWN ? `${line.slice(0, MAX_LINE_SHOWN)}… [line cut]` : line}`);
        }
      }
      if (cut) break;
      if (count === 0 || mode === 'content') continue;
      if (results.length >= head) {
        cut = true;
        break;
      }
      results.push(mode === 'count' ? `${f.shown}:${count}` : f.shown);
    }

    const notes: string[] = [];
    if (cut) notes.push(`(Stopped at ${head} results; there are more. Narrow the search with path, glob or a more specific pattern, or raise head_limit.)`);
    if (tooBig) notes.push(`(${tooBig} file${tooBig === 1 ? '' : 's'} over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB not searched.)`);
    if (results.length === 0) return { content: [`No matches for /${i.pattern}/ in ${displayPath(cwd, root)}.`, ...notes].join('\n') };
    return { content: [...results, ...(notes.length ? ['', ...notes] : [])].join('\n') };
  },
};
