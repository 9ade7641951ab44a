import { promises as fs } from 'node:fs';
import { resolveToolPath } from './paths';
import type { Tool } from './types';
import { looksBinary, parseFields } from './util';

export const READ_MAX_BYTES = 256 * 1024;
export const READ_DEFAULT_LIMIT = 2000;
const MAX_LINE = 2000;

interface ReadInput {
  file_path: string;
  offset?: number;
  limit?: number;
}

export const readTool: Tool<ReadInput> = {
  name: 'Read',
  description:
    'Reads a text file from the local filesystem and returns it with line numbers (like `cat -n`). ' +
    'Paths are absolute or relative to the workspace. By default up to 2000 lines from the start; for long files pass `offset` (1-based first line) and `limit` (number of lines). ' +
    'Files over 256 KB need offset/limit. Lines longer than 2000 characters are cut. Binary files (images, archives, executables) are refused. ' +
    'Read a file before editing it. Several Read calls in one response run in parallel.',
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'Path of the file to read' },
      offset: { type: 'number', description: 'First line to read, 1-based' },
      limit: { type: 'number', description: 'Number of lines to read' },
    },
    required: ['file_path'],
  },
  parse: (input) => {
    const r = parseFields<ReadInput>(input, { file_path: 'string' }, { offset: 'number', limit: 'number' });
    if (!r.ok) return r;
    const { offset, limit } = r.value;
    if (offset !== undefined && offset !== null && (!Number.isInteger(offset) || offset < 1)) return { ok: false, error: '"offset" must be a whole number from 1' };
    if (limit !== undefined && limit !== null && (!Number.isInteger(limit) || limit < 1)) return { ok: false, error: '"limit" must be a positive whole number' };
    return r;
  },
  isReadOnly: () => true,
  summarize: (i) => (i.offset || i.limit ? `${i.file_path} (lines ${i.offset ?? 1}–${(i.offset ?? 1) + (i.limit ?? READ_DEFAULT_LIMIT) - 1})` : i.file_path),
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd }) {
    const abs = resolveToolPath(cwd, i.file_path);
    let st;
    try {
      st = await fs.stat(abs);
    } catch {
      return { content: `File not found: ${abs}`, isError: true };
    }
    if (st.isDirectory()) return { content: `${abs} is a directory; use Glob to list its files.`, isError: true };
    const paging = Boolean(i.offset || i.limit);
    if (st.size > READ_MAX_BYTES && !paging) {
      return { content: `${abs} is ${Math.round(st.size / 1024)} KB, more than the ${READ_MAX_BYTES / 1024} KB Read returns at once. Read it in parts with offset and limit (e.g. offset 1, limit 500), or search it with Grep.`, isError: true };
    }
    const buf = await fs.readFile(abs);
    if (looksBinary(abs, buf)) return { content: `${abs} looks like a binary file (${st.size} bytes); Read only returns text.`, isError: true };
    const text = buf.toString('utf8');
    if (text.length === 0) return { content: `(${abs} is empty)` };
    const lines = text.split(/\r?\n/);
    if (lines.at(-1) === '') lines.pop();
    const start = (i.offset ?? 1) - 1;
    const limit = i.limit ?? READ_DEFAULT_LIMIT;
    if (start >= lines.length) return { content: `${abs} has ${lines.length} lines; offset ${start + 1} is past the end.`, isError: true };
    const slice = lines.slice(start, start + limit);
    const width = String(start + slice.length).length;
    const body = slice
      .map((l, k) => `${String(start + k + 1).padStart(Math.max(6, width))}\t${l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}… (line cut)` : l}`)
      .join('\n');
    const more = start + slice.length < lines.length ? `\n\n(${lines.length - start - slice.length} more lines; continue with offset ${start + slice.length + 1})` : '';
    return { content: body + more };
  },
};
