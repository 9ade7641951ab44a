import { createReadStream, promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolveToolPath } from '../../tools/paths';
import { readRegularFile } from '../../tools/regularFile';
import type { Tool } from '../../tools/types';
import { z } from 'zod';
import { parseToolInput, pathField, toInputSchema } from '../../tools/schema';
import { errorMessage, hasBinaryExtension, hasNulByte, INTERRUPTED, readHead } from './util';

export const READ_MAX_BYTES = 256 * 1024;
export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE = 2000;

const readInput = z.object({
  file_path: pathField('The file to read, absolute or relative to the workspace'),
  offset: z.number().int().min(1).optional().describe('Line number to start at, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe(`Number of lines to return (default ${READ_DEFAULT_LIMIT})`),
});
type ReadInput = z.output<typeof readInput>;

function numbered(n: number, line: string): string {
  const text = line.length > READ_MAX_LINE ? `${line.slice(0, READ_MAX_LINE)}… [line cut at ${READ_MAX_LINE} of ${line.length} characters]` : line;
  return `${String(n).padStart(6)}\t${text}`;
}

/**
 * Lines `first`..`first + count - 1` (1-based) of a file too big to load, read as a stream;
 * also says whether any line follows. Stops early when aborted.
 */
async function streamLines(abs: string, first: number, count: number, signal: AbortSignal): Promise<{ lines: string[]; more: boolean; total?: number }> {
  const stream = createReadStream(abs, { encoding: 'utf8' });
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  const lines: string[] = [];
  let n = 0;
  let more = false;
  try {
    for await (const line of rl) {
      if (signal.aborted) break;
      n++;
      if (n < first) continue;
      if (lines.length === count) {
        more = true;
        break;
      }
      lines.push(line);
    }
  } finally {
    rl.close();
    stream.destroy();
  }
  return { lines, more, total: more ? undefined : n };
}

export const readTool: Tool<ReadInput> = {
  name: 'Read',
  description: [
    'Read a text file and get its contents with line numbers, formatted like `cat -n` (number, tab, line).',
    'file_path may be absolute or relative to the workspace.',
    `Returns up to ${READ_DEFAULT_LIMIT} lines from the start by default; to page through a long file pass offset (the 1-based line to start at) and limit (how many lines).`,
    `Files over ${READ_MAX_BYTES / 1024} KB are only read in pages (offset/limit). Lines longer than ${READ_MAX_LINE} characters are cut.`,
    'Binary files (images, archives, executables, PDFs) are refused, and so are folders: use Glob to list files.',
    'Read a file before you Edit it. Reads are safe to batch: several Read calls in one response run in parallel.',
  ].join(' '),
  inputSchema: toInputSchema(readInput),
  traits: { readsFiles: true, returnsFileContent: true, compactable: true, background: 'read' },
  parse: (input) => parseToolInput(readInput, input),
  isReadOnly: () => true,
  summarize: (i) => {
    if (i.offset === undefined && i.limit === undefined) return i.file_path;
    const from = i.offset ?? 1;
    return `${i.file_path} (lines ${from}–${from + (i.limit ?? READ_DEFAULT_LIMIT) - 1})`;
  },
  paths: (i, cwd) => [resolveToolPath(cwd, i.file_path)],
  async call(i, { cwd, signal }) {
    if (signal.aborted) return INTERRUPTED;
    const abs = resolveToolPath(cwd, i.file_path);
    let size: number;
    try {
      const st = await fs.stat(abs);
      if (st.isDirectory()) return { content: `${abs} is a folder, not a file. Use Glob (e.g. pattern "*" with path "${i.file_path}") to list what is in it.`, isError: true };
      if (!st.isFile()) return { content: `${abs} is not a regular file.`, isError: true };
      size = st.size;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { content: `File does not exist: ${abs}. Check the path, or find the file with Glob.`, isError: true };
      return { content: `Cannot read ${abs}: ${errorMessage(err)}.`, isError: true };
    }
    if (hasBinaryExtension(abs)) return { content: `${abs} is a binary file (by its extension); Read only returns text.`, isError: true };
    if (size === 0) return { content: `(${abs} exists but is empty.)` };
    const paging = i.offset !== undefined || i.limit !== undefined;
    if (size > READ_MAX_BYTES && !paging) {
      return {
        content:
          `${abs} is ${Math.ceil(size / 1024)} KB, over the ${READ_MAX_BYTES / 1024} KB that Read returns in one go. ` +
          `Read it in pages with offset and limit (for example offset 1, limit 1000, then offset 1001), or find the part you need with Grep first.`,
        isError: true,
      };
    }
    try {
      if (hasNulByte(await readHead(abs))) return { content: `${abs} looks binary (it has NUL bytes); Read only returns text.`, isError: true };
      const first = i.offset ?? 1;
      const limit = i.limit ?? READ_DEFAULT_LIMIT;
      let lines: string[];
      let more: boolean;
      let total: number | undefined;
      if (size <= READ_MAX_BYTES) {
        // Checked again on the open file: the path may have become a FIFO since the stat.
        const read = await readRegularFile(abs, READ_MAX_BYTES);
        if (!read.ok) return { content: `Cannot read ${abs}: ${read.reason === 'too-large' ? 'it grew past the size Read returns in one go' : read.reason === 'unreadable' ? errorMessage(read.error) : 'it is no longer a regular file'}.`, isError: true };
        let all = read.bytes.toString('utf8').split('\n');
        if (all.at(-1) === '') all.pop();
        all = all.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
        total = all.length;
        lines = all.slice(first - 1, first - 1 + limit);
        more = first - 1 + lines.length < all.length;
      } else {
        ({ lines, more, total } = await streamLines(abs, first, limit, signal));
      }
      if (signal.aborted) return INTERRUPTED;
      if (lines.length === 0) return { content: `${abs} has ${total ?? 'fewer'} lines; offset ${first} is past the end.`, isError: true };
      if (first === 1 && lines[0]?.startsWith('\uFEFF')) lines[0] = lines[0].slice(1);
      const body = lines.map((l, k) => numbered(first + k, l)).join('\n');
      const last = first + lines.length - 1;
      const note = more ? `\n\n(Showing lines ${first}–${last}${total !== undefined ? ` of ${total}` : ''}. Continue with offset ${last + 1}.)` : '';
      return { content: body + note };
    } catch (err) {
      return { content: `Cannot read ${abs}: ${errorMessage(err)}.`, isError: true };
    }
  },
};
